/**
 * An app with stored, page-aligned native libraries and `android:extractNativeLibs="false"` — as
 * the Android Gradle plugin packs one by default — made from a corpus APK whose libraries were
 * deflated: Google's aapt2 turns the APK into its proto form, protoc (with the aapt.pb schema)
 * writes the attribute into the manifest, aapt2 turns it back into a binary APK, and the
 * libraries are stored again aligned to 16 KB. Only the schema text (the public aapt.pb contract,
 * as the engine spells it) comes from this repository.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AAPT_PROTO } from '../../src/proto/index.js';
import type { Oracles } from '../helpers/oracles.js';
import { run } from './tools.js';
import { ZipArchive, ZipWriter } from './zip.js';

const ANDROID_NS = 'http://schemas.android.com/apk/res/android';
const EXTRACT_NATIVE_LIBS = 0x010104ea;

/** Whether the APK holds native libraries (`lib/<abi>/*.so`). */
export function hasNativeLibraries(apk: string): boolean {
  return ZipArchive.open(apk).entries.some((e) => /^lib\/[^/]+\/[^/]+\.so$/.test(e.name));
}

/** Whether every native library of the APK is stored (not deflated). */
export function nativeLibrariesStored(apk: string): boolean {
  const libs = ZipArchive.open(apk).entries.filter((e) => /^lib\/[^/]+\/[^/]+\.so$/.test(e.name));
  return libs.length > 0 && libs.every((e) => e.method === 0);
}

/** The text-format manifest with android:extractNativeLibs="false" on <application> (replacing any). */
function withExtractNativeLibsFalse(text: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => /^\s*name: "application"$/.test(l));
  if (at < 0) throw new Error('manifest without <application>');
  const indent = /^(\s*)/.exec(lines[at])![1];
  const attribute = `${indent}attribute { namespace_uri: "${ANDROID_NS}" name: "extractNativeLibs" resource_id: ${EXTRACT_NATIVE_LIBS} compiled_item { prim { boolean_value: false } } }`;
  lines.splice(at + 1, 0, attribute);
  return lines.join('\n');
}

function protoc(o: Pick<Oracles, 'protoc'>, dir: string, mode: '--decode' | '--encode', input: Buffer): Buffer {
  const r = spawnSync(o.protoc, [mode, 'aapt.pb.XmlNode', '-I', dir, 'aapt.proto'], { input, maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`protoc ${mode}: ${r.stderr.toString('utf8')}`);
  return r.stdout;
}

/** The APK rebuilt with stored, 16 KB-aligned libraries and extractNativeLibs="false" (`dir/stored.apk`). */
export async function withStoredNativeLibraries(o: Pick<Oracles, 'aapt2' | 'protoc'>, apk: string, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'aapt.proto'), AAPT_PROTO);
  const protoApk = join(dir, 'proto.apk');
  await run(o.aapt2, ['convert', '--output-format', 'proto', '-o', protoApk, apk]);
  const proto = ZipArchive.open(protoApk);
  const edited = join(dir, 'edited.apk');
  const w = new ZipWriter(edited);
  for (const e of proto.entries) {
    if (e.name === 'AndroidManifest.xml') {
      const text = protoc(o, dir, '--decode', proto.read(e)).toString('utf8');
      w.add(e.name, protoc(o, dir, '--encode', Buffer.from(withExtractNativeLibsFalse(text), 'utf8')), { method: 'deflate' });
    } else {
      w.addRaw(e.name, e.method, e.crc, proto.raw(e), e.size);
    }
  }
  w.close();
  const binary = join(dir, 'binary.apk');
  await run(o.aapt2, ['convert', '--output-format', 'binary', '-o', binary, edited]);
  const from = ZipArchive.open(binary);
  const out = join(dir, 'stored.apk');
  const s = new ZipWriter(out);
  for (const e of from.entries) {
    if (/^lib\/[^/]+\/[^/]+\.so$/.test(e.name)) s.add(e.name, from.read(e), { method: 'store', align: 16384 });
    else s.addRaw(e.name, e.method, e.crc, from.raw(e), e.size, e.method === 0 ? 4 : undefined);
  }
  s.close();
  return out;
}
