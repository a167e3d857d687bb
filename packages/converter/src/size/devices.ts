/**
 * Representative devices for the download-size estimate, and the parts of Android's
 * configuration matching the estimate needs (ABI preference, density buckets and best match).
 */

export interface DeviceProfile {
  /** Stable id, e.g. `arm64-v8a_xxhdpi_pt-BR`. */
  id: string;
  /** pt-BR label for the UI. */
  label: string;
  /** ABIs the device runs, preferred first (what Play matches native splits against). */
  abis: string[];
  /** Screen density in dpi. */
  density: number;
  /** BCP-47 locale of the device. */
  locale: string;
  sdk: number;
}

export const DEVICE_PROFILES: readonly DeviceProfile[] = [
  { id: 'arm64-v8a_xxhdpi_pt-BR', label: 'Celular atual (arm64-v8a, xxhdpi, pt-BR)', abis: ['arm64-v8a', 'armeabi-v7a', 'armeabi'], density: 480, locale: 'pt-BR', sdk: 33 },
  { id: 'armeabi-v7a_hdpi_en', label: 'Celular de entrada (armeabi-v7a, hdpi, en)', abis: ['armeabi-v7a', 'armeabi'], density: 240, locale: 'en', sdk: 33 },
  { id: 'x86_64_xhdpi_es', label: 'Chromebook / emulador (x86_64, xhdpi, es)', abis: ['x86_64', 'x86'], density: 320, locale: 'es', sdk: 33 },
];

/** Density buckets bundletool makes splits for, with their dpi. */
export const DENSITY_BUCKETS: readonly { name: string; dpi: number }[] = [
  { name: 'ldpi', dpi: 120 },
  { name: 'mdpi', dpi: 160 },
  { name: 'tvdpi', dpi: 213 },
  { name: 'hdpi', dpi: 240 },
  { name: 'xhdpi', dpi: 320 },
  { name: 'xxhdpi', dpi: 480 },
  { name: 'xxxhdpi', dpi: 640 },
];

export const DENSITY_DEFAULT = 0;
export const DENSITY_ANY = 0xfffe;
export const DENSITY_NONE = 0xffff;

/** The bucket a device density falls in (the nearest bucket, ties going up). */
export function densityBucket(dpi: number): { name: string; dpi: number } {
  let best = DENSITY_BUCKETS[0];
  for (const b of DENSITY_BUCKETS) if (Math.abs(b.dpi - dpi) <= Math.abs(best.dpi - dpi)) best = b;
  return best;
}

/**
 * ResTable_config::isBetterThan for density alone: is a resource of density `a` a better match
 * than one of density `b` for a screen of `requested` dpi? (default density counts as mdpi.)
 */
export function densityBetter(a: number, b: number, requested: number): boolean {
  if (a === b) return false;
  if (a === DENSITY_ANY) return true;
  if (b === DENSITY_ANY) return false;
  const da = a === DENSITY_DEFAULT ? 160 : a;
  const db = b === DENSITY_DEFAULT ? 160 : b;
  let h = da;
  let l = db;
  let aBigger = true;
  if (l > h) {
    [h, l] = [l, h];
    aBigger = false;
  }
  if (requested >= h) return aBigger;
  if (l >= requested) return !aBigger;
  // Scaling down is twice as good as scaling up.
  return (2 * l - requested) * h > requested * requested ? !aBigger : aBigger;
}

/** The language part of a locale (`pt-BR` → `pt`), as bundletool names language splits. */
export function languageOf(locale: string): string {
  const lang = locale.split(/[-_]/)[0].toLowerCase();
  // Android keeps the legacy codes for these three.
  return ({ he: 'iw', id: 'in', yi: 'ji' } as Record<string, string>)[lang] ?? lang;
}
