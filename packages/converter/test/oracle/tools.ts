/**
 * Runs the oracles: bundletool (validate, build-apks --mode=universal, build-bundle), aapt2
 * (dump resources, dump xmltree, convert --output-format proto). Every call is asynchronous so
 * the round trip can run two APKs at once on CI's two cores.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Oracles } from '../helpers/oracles.js';
import { toLines } from './diff.js';
import { ZipArchive, ZipWriter } from './zip.js';

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

/** Runs a tool; rejects with its last stderr lines when it exits non-zero or times out. */
export function run(cmd: string, args: readonly string[], options: { timeoutMs?: number; cwd?: string } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      const stdout = Buffer.concat(out);
      if (code === 0) {
        resolve({ stdout, stderr });
        return;
      }
      // Tools say what went wrong first (bundletool's `[BT:x] Error: ...`), then a stack trace.
      const head = (stderr.trim() || stdout.toString('utf8').trim()).split('\n').slice(0, 6).join('\n');
      const why = signal ? `killed by ${signal}` : `exit ${code}`;
      reject(new Error(`${cmd.split('/').pop()} ${args.join(' ')}: ${why}\n${head}`));
    });
  });
}

type BundletoolOracles = Pick<Oracles, 'java' | 'bundletoolJar'>;

/** JVM flags for short-lived runs: C1 only and the serial collector start faster on 2 cores. */
const JVM_FLAGS = ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Xss4m'];

export function bundletool(o: BundletoolOracles, args: readonly string[]): Promise<RunResult> {
  return run(o.java, [...JVM_FLAGS, '-jar', o.bundletoolJar, ...args]);
}

/** `bundletool validate`: resolves when valid, rejects with bundletool's error otherwise. */
export async function validateBundle(o: BundletoolOracles, aab: string): Promise<void> {
  await bundletool(o, ['validate', `--bundle=${aab}`]);
}

/**
 * `bundletool build-apks --mode=universal` with our aapt2, then extracts `universal.apk` into
 * `workDir`. Unsigned: bundletool only warns, and the dumps need no signature.
 */
export async function buildUniversalApk(o: BundletoolOracles & Pick<Oracles, 'aapt2'>, aab: string, workDir: string): Promise<string> {
  mkdirSync(workDir, { recursive: true });
  const apks = join(workDir, 'universal.apks');
  rmSync(apks, { force: true });
  await bundletool(o, ['build-apks', '--mode=universal', `--bundle=${aab}`, `--output=${apks}`, `--aapt2=${o.aapt2}`, '--overwrite']);
  const zip = ZipArchive.open(apks);
  const entry = zip.entries.find((e) => e.name === 'universal.apk');
  if (!entry) throw new Error(`${apks} has no universal.apk (entries: ${zip.entries.map((e) => e.name).join(', ')})`);
  const out = join(workDir, 'universal.apk');
  writeFileSync(out, zip.read(entry));
  return out;
}

export async function dumpResources(aapt2: string, apk: string): Promise<string[]> {
  const { stdout } = await run(aapt2, ['dump', 'resources', apk]);
  return toLines(stdout.toString('utf8'));
}

/** `aapt2 dump xmltree` of several files of one APK, in one process (outputs concatenated). */
export async function dumpXmlTrees(aapt2: string, apk: string, files: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  for (let i = 0; i < files.length; i += 200) {
    const args = ['dump', 'xmltree', apk];
    for (const f of files.slice(i, i + 200)) args.push('--file', f);
    const { stdout } = await run(aapt2, args);
    lines.push(...toLines(stdout.toString('utf8')));
  }
  return lines;
}

export async function dumpXmlTree(aapt2: string, apk: string, file: string): Promise<string[]> {
  return dumpXmlTrees(aapt2, apk, [file]);
}

/** APK v1 signature files (directly in META-INF/), which no bundle or generated APK keeps. */
export const SIGNATURE_FILE = /^META-INF\/(MANIFEST\.MF|[^/]+\.(SF|RSA|DSA|EC)|SIG-[^/]*)$/i;

/**
 * Google's own pipeline, the reference our engine is measured against and the harness's sanity
 * check: `aapt2 convert --output-format proto`, the module laid out as AGP would, then
 * `bundletool build-bundle`. Fails where Google's tools fail (no versionCode, SDK codenames).
 */
export async function googleBundle(o: BundletoolOracles & Pick<Oracles, 'aapt2'>, apk: string, aab: string, workDir: string): Promise<void> {
  const moduleZip = await googleModule(o, apk, join(workDir, 'base.zip'), workDir);
  rmSync(aab, { force: true });
  await bundletool(o, ['build-bundle', `--modules=${moduleZip}`, `--output=${aab}`]);
}

/**
 * A module zip as AGP lays it out for `bundletool build-bundle`, from an APK (or a proto APK
 * that `aapt2 link --proto-format` made, when `proto` is set): the manifest under manifest/, dex
 * under dex/, res/, assets/, lib/ and resources.pb as they are, anything else under root/.
 */
export async function googleModule(o: Pick<Oracles, 'aapt2'>, apk: string, moduleZip: string, workDir: string, proto = false): Promise<string> {
  mkdirSync(workDir, { recursive: true });
  let source = apk;
  if (!proto) {
    source = join(workDir, 'proto.zip');
    await run(o.aapt2, ['convert', '--output-format', 'proto', '-o', source, apk]);
  }
  const converted = ZipArchive.open(source);
  const writer = new ZipWriter(moduleZip);
  for (const e of converted.byName().values()) {
    if (e.name.endsWith('/') || SIGNATURE_FILE.test(e.name) || e.name === 'stamp-cert-sha256') continue;
    let path: string;
    if (e.name === 'AndroidManifest.xml') path = 'manifest/AndroidManifest.xml';
    else if (/^classes\d*\.dex$/.test(e.name)) path = `dex/${e.name}`;
    else if (e.name === 'resources.pb' || /^(res|assets|lib)\//.test(e.name)) path = e.name;
    else path = `root/${e.name}`;
    writer.addRaw(path, e.method, e.crc, converted.raw(e), e.size);
  }
  writer.close();
  return moduleZip;
}
