import { AaptPb } from '../proto/aapt.js';

interface FileItemHolder {
  value?: { item?: { file?: { path?: string } } };
}
interface EntryHolder {
  config_value?: FileItemHolder[];
}
interface TypeHolder {
  entry?: EntryHolder[];
}

/**
 * Removes from an encoded ResourceTable every value that names a file in `missing` (and entries
 * left without values): a dangling reference would make bundletool reject the whole bundle.
 */
export function dropDanglingFileReferences(tablePb: Uint8Array, missing: ReadonlySet<string>): Uint8Array {
  const msg = AaptPb.ResourceTable.decode(tablePb) as unknown as { package?: { type?: TypeHolder[] }[] };
  for (const pkg of msg.package ?? []) {
    for (const type of pkg.type ?? []) {
      for (const entry of type.entry ?? []) {
        entry.config_value = (entry.config_value ?? []).filter((cv) => !missing.has(cv.value?.item?.file?.path ?? ''));
      }
      type.entry = (type.entry ?? []).filter((e) => (e.config_value ?? []).length > 0);
    }
  }
  return AaptPb.ResourceTable.encode(msg as unknown as Record<string, unknown>).finish();
}
