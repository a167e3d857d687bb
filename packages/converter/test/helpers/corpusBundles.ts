/**
 * The expensive steps the corpus oracle tests share, each done once per APK per test run:
 * converting a corpus APK (our AAB, validated by bundletool), bundletool's universal APK of that
 * AAB, and the AAB Google's own pipeline makes of the APK with its universal APK. Several test
 * files ask for the same APK; the first asks, the others wait for the same promise. The work
 * folder is removed when the process exits (AABIFY_KEEP_ARTIFACTS=1 keeps it).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertApk, type ConversionReport } from '../../src/index.js';
import type { CorpusApk } from './corpus.js';
import type { Oracles } from './oracles.js';
import { buildUniversalApk, googleBundle, validateBundle } from '../oracle/tools.js';

type BundleOracles = Pick<Oracles, 'java' | 'bundletoolJar' | 'aapt2'>;

export interface CorpusBundle {
  /** Our AAB of the APK. */
  aab: string;
  report: ConversionReport;
  /** bundletool's universal APK of `aab`. */
  universal: string;
  /** A folder of this APK's own for more artifacts. */
  dir: string;
}

export interface GoogleBundle {
  /** The AAB of `aapt2 convert` + `bundletool build-bundle`. */
  aab: string;
  /** bundletool's universal APK of it. */
  universal: string;
  dir: string;
}

let work: string | undefined;

function workDir(): string {
  if (!work) {
    const dir = mkdtempSync(join(tmpdir(), 'aabify-corpus-bundles-'));
    work = dir;
    process.on('exit', () => {
      if (process.env.AABIFY_KEEP_ARTIFACTS === '1') console.log(`      corpus bundles kept in ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    });
  }
  return work;
}

const ours = new Map<string, Promise<CorpusBundle>>();
const google = new Map<string, Promise<GoogleBundle>>();

function remembered<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let p = cache.get(key);
  if (!p) {
    p = make();
    p.catch(() => undefined); // reported by whoever awaits it
    cache.set(key, p);
  }
  return p;
}

/** convertApk → `bundletool validate` → `bundletool build-apks --mode=universal`, once per APK. */
export function corpusBundle(o: BundleOracles, apk: CorpusApk): Promise<CorpusBundle> {
  return remembered(ours, apk.name, async () => {
    const dir = join(workDir(), apk.name);
    mkdirSync(dir, { recursive: true });
    const aab = join(dir, `${apk.name}.aab`);
    const report = await convertApk(apk.path, aab, { overwrite: true });
    await validateBundle(o, aab);
    const universal = await buildUniversalApk(o, aab, join(dir, 'bundletool'));
    return { aab, report, universal, dir };
  });
}

/** Google's pipeline (aapt2 convert + build-bundle) → `bundletool build-apks --mode=universal`, once per APK. */
export function googleCorpusBundle(o: BundleOracles, apk: CorpusApk): Promise<GoogleBundle> {
  return remembered(google, apk.name, async () => {
    const dir = join(workDir(), apk.name, 'google');
    mkdirSync(dir, { recursive: true });
    const aab = join(dir, 'google.aab');
    await googleBundle(o, apk.path, aab, dir);
    const universal = await buildUniversalApk(o, aab, join(dir, 'bundletool'));
    return { aab, universal, dir };
  });
}
