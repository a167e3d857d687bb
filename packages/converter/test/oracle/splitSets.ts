/**
 * Split sets made by Google's bundletool from a bundle, and the same splits repacked the way
 * other stores and tools ship them: `build-apks` → .apks (toc.pb, splits/…), an .xapk (the
 * split APKs at the root beside a manifest.json, deflated), a plain .zip of the split APKs
 * (stored), and a device's own set (`extract-apks --device-spec`).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Oracles } from '../helpers/oracles.js';
import { bundletool } from './tools.js';
import { ZipArchive, ZipWriter } from './zip.js';

type SetOracles = Pick<Oracles, 'java' | 'bundletoolJar' | 'aapt2'>;

/** A device bundletool serves a split set to: two ABIs, two languages, xxhdpi, Android 11. */
export const DEVICE_SPEC = { supportedAbis: ['arm64-v8a', 'armeabi-v7a'], supportedLocales: ['pt-BR', 'en'], screenDensity: 480, sdkVersion: 30 };

/** `bundletool build-apks` (split APKs, the default mode) into `out`. */
export async function buildApkSet(o: SetOracles, aab: string, out: string, deviceSpec?: string): Promise<string> {
  rmSync(out, { force: true });
  const args = ['build-apks', `--bundle=${aab}`, `--output=${out}`, `--aapt2=${o.aapt2}`, '--overwrite'];
  if (deviceSpec) args.push(`--device-spec=${deviceSpec}`);
  await bundletool(o, args);
  return out;
}

/** `bundletool extract-apks` for DEVICE_SPEC into `dir`; returns the APK paths, sorted by name. */
export async function extractForDevice(o: SetOracles, apks: string, dir: string): Promise<string[]> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const spec = join(dir, '..', `${basename(dir)}-spec.json`);
  writeFileSync(spec, JSON.stringify(DEVICE_SPEC));
  await bundletool(o, ['extract-apks', `--apks=${apks}`, `--output-dir=${dir}`, `--device-spec=${spec}`]);
  return readdirSync(dir).filter((f) => f.endsWith('.apk')).sort().map((f) => join(dir, f));
}

export function deviceSpecFile(dir: string): string {
  const spec = join(dir, 'device-spec.json');
  writeFileSync(spec, JSON.stringify(DEVICE_SPEC));
  return spec;
}

/** The split APKs of an .apks (`splits/…`, `asset-slices/…`), as name → bytes. */
export function splitApks(apks: string): Map<string, Buffer> {
  const zip = ZipArchive.open(apks);
  const out = new Map<string, Buffer>();
  for (const e of zip.entries) if (/^(splits|asset-slices)\/.+\.apk$/.test(e.name)) out.set(e.name.slice(e.name.indexOf('/') + 1), zip.read(e));
  return out;
}

/** The splits as an .xapk: APKs deflated at the root, a manifest.json describing them. */
export function writeXapk(splits: ReadonlyMap<string, Buffer>, packageName: string, out: string): string {
  const w = new ZipWriter(out);
  const manifest = {
    xapk_version: 2,
    package_name: packageName,
    split_apks: [...splits.keys()].map((file) => ({ file, id: file.replace(/\.apk$/, '') })),
  };
  w.add('manifest.json', Buffer.from(JSON.stringify(manifest)), { method: 'deflate' });
  for (const [name, bytes] of splits) w.add(name, bytes, { method: 'deflate' });
  w.close();
  return out;
}

/** The splits as a plain zip, stored (no manifest of any kind). */
export function writeZipOfApks(splits: ReadonlyMap<string, Buffer>, out: string): string {
  const w = new ZipWriter(out);
  for (const [name, bytes] of splits) w.add(`apks/${name}`, bytes, { method: 'store' });
  w.close();
  return out;
}
