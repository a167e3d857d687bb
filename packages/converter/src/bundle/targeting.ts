import { ABI_ALIASES, HWASAN_ABI, type AssetsMsg, type NativeLibrariesMsg } from '../proto/bundle.js';

/** assets.pb: one empty targeting per distinct parent directory of a file under assets/ (module paths). */
export function buildAssetsConfig(assetPaths: readonly string[]): AssetsMsg | undefined {
  const dirs = new Set<string>();
  for (const p of assetPaths) dirs.add(p.slice(0, p.lastIndexOf('/')));
  if (dirs.size === 0) return undefined;
  return { directory: [...dirs].sort().map((path) => ({ path, targeting: {} })) };
}

/** native.pb: every lib/<abi> directory with files, each targeted at its ABI. */
export function buildNativeConfig(abis: readonly string[]): NativeLibrariesMsg | undefined {
  const unique = [...new Set(abis)].sort();
  if (unique.length === 0) return undefined;
  return {
    directory: unique.map((abi) => ({
      path: `lib/${abi}`,
      targeting: abi === HWASAN_ABI ? { abi: { alias: ABI_ALIASES[abi] }, sanitizer: { alias: 1 } } : { abi: { alias: ABI_ALIASES[abi] } },
    })),
  };
}
