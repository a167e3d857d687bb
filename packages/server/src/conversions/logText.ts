/**
 * A conversion's log line as its owner reads it, made when the line is stored: sizes in pt-BR
 * ('1,22 MB', not '1278851 bytes') and files named after what was uploaded. The engine sees the
 * stored copy of a single upload (`…/input.apk`) and names a file inside a container
 * `app.apks!splits/base.apk`; the owner uploaded `app.apks` and reads `app.apks › splits/base.apk`.
 */
import { formatBytes } from '@aabify/shared';

/** The names the owner gave the conversion's files. */
export interface UploadedNames {
  /** The upload (the first file of a set). */
  fileName: string;
  /** The other files of a set upload. */
  others: readonly string[];
}

/** The stored copy of a single upload, bare or with its folders (storage/store.ts `storageKeys.apk`). */
const STORED_UPLOAD = /(?:[^\s'"()[\]]*\/)?input\.apk(?![\w.-])/g;
/** A byte count as the engine and the server write it. */
const BYTE_COUNT = /\b(\d+)\s?bytes\b/gi;

export function readableLogMessage(message: string, names: UploadedNames | null): string {
  let text = message.replace(BYTE_COUNT, (_whole, count: string) => formatBytes(Number(count)));
  if (!names) return text;
  text = text.replace(STORED_UPLOAD, () => names.fileName);
  for (const name of new Set([names.fileName, ...names.others])) text = text.split(`${name}!`).join(`${name} › `);
  return text;
}
