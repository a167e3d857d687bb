import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { convertApk, DEVICE_PROFILES, estimateDownloadSizes, type DeviceDownloadSize } from '../src/index.js';
import { routeEntries } from '../src/bundle/collect.js';
import { densityBetter, densityBucket, languageOf } from '../src/size/devices.js';
import { ZipReader, type ZipEntry } from '../src/zip/index.js';
import { sampledBytes, samplingPlan } from '../src/size/estimate.js';
import { listCorpus, type CorpusApk } from './helpers/corpus.js';
import { missingPrerequisite, requireOracles } from './helpers/oracles.js';
import { TempDir, buildZip, randomish, tinyApkEntries } from './helpers/zipBuilder.js';
import { bundletool } from './oracle/tools.js';

/** How far the estimate may be from `bundletool get-size total` (fraction). */
const TOLERANCE = 0.05;
/** bundletool runs at most this many at once (CI has 2 cores). */
const PARALLELISM = 2;

async function pool<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

describe('size: Android matching rules', () => {
  it('densityBetter_requestedBetweenTwo_prefersScalingDown', () => {
    expect(densityBetter(480, 320, 400)).to.equal(true);
    expect(densityBetter(240, 160, 480)).to.equal(true);
    expect(densityBetter(160, 480, 120)).to.equal(true);
    expect(densityBetter(0xfffe, 480, 480)).to.equal(true);
    expect(densityBetter(0, 240, 160)).to.equal(true);
  });

  it('densityBucket_deviceDpi_nearestBucket', () => {
    expect(densityBucket(480).name).to.equal('xxhdpi');
    expect(densityBucket(420).name).to.equal('xxhdpi');
    expect(densityBucket(240).name).to.equal('hdpi');
  });

  it('languageOf_localeWithRegionAndLegacyCodes_bundletoolSplitName', () => {
    expect(languageOf('pt-BR')).to.equal('pt');
    expect(languageOf('he')).to.equal('iw');
    expect(languageOf('en')).to.equal('en');
  });
});

describe('size: estimate on built APKs', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = new TempDir();
  });
  afterEach(() => tmp.cleanup());

  it('estimateDownloadSizes_arm64OnlyLibraries_x86DeviceIncompatibleOthersSplit', async () => {
    const apk = tmp.file('tiny.apk', buildZip(tinyApkEntries()));
    const r = await ZipReader.open(apk);
    const sizes = await estimateDownloadSizes(r, routeEntries(r));
    await r.close();
    expect(sizes.map((s) => s.device.id)).to.deep.equal(DEVICE_PROFILES.map((d) => d.id));
    const [arm64, armv7, x86] = sizes;
    expect(arm64.compatible).to.equal(true);
    expect(arm64.splits.map((s) => s.name)).to.deep.equal(['base-master', 'base-arm64_v8a']);
    expect(armv7.compatible).to.equal(false);
    expect(x86.compatible).to.equal(false);
    expect(arm64.bundleBytes).to.be.greaterThan(0);
    expect(arm64.savedBytes).to.equal(arm64.apkBytes - arm64.bundleBytes);
  });

  it('estimateDownloadSizes_overBudgetStoredAssets_closeToDeflatingThemWhole', async () => {
    // Within the default budget these 3 MiB entries are deflated whole (the exact figure); over a
    // small one they are sampled: the noise ones from their two small probes (incompressible),
    // the mixed one (a probe in its text) from all five windows (three text, two noise, as the
    // entry is); its two probes alone would put it ~3 % off.
    const MB = 1024 * 1024;
    // xorshift32: really incompressible bytes (randomish() repeats within a deflate window)
    const noise = (n: number, seed: number): Buffer => {
      const out = Buffer.alloc(n);
      let x = seed;
      for (let i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        out[i] = x & 0xff;
      }
      return out;
    };
    const words = ['layout', 'string', 'android', 'value', 'name', 'item', 'style', 'color', 'dimen', 'id'];
    const picks = noise(MB / 2, 1);
    const text = Buffer.from(Array.from({ length: MB / 2 }, (_, i) => words[picks[i] % words.length]).join(' ').slice(0, 1.8 * MB));
    const apk = tmp.file(
      'assets.apk',
      buildZip([
        ...tinyApkEntries(),
        { name: 'assets/uniform1.bin', data: noise(3 * MB, 2), method: 0 },
        { name: 'assets/uniform2.bin', data: noise(3 * MB, 3), method: 0 },
        { name: 'assets/mixed.bin', data: Buffer.concat([text, noise(1.2 * MB, 4)]), method: 0 },
      ]),
    );
    const r = await ZipReader.open(apk);
    try {
      expect(samplingPlan(r.entries, 4 * MB)).to.deep.equal({ redeflateCompressed: false, windows: 5 });
      const exact = await estimateDownloadSizes(r, routeEntries(r));
      const sampled = await estimateDownloadSizes(r, routeEntries(r), { deflateBudget: 4 * MB });
      expect(sampled).to.have.length(3);
      expect(Math.abs(sampled[0].apkBytes / exact[0].apkBytes - 1)).to.be.below(0.01);
      expect(Math.abs(sampled[0].bundleBytes / exact[0].bundleBytes - 1)).to.be.below(0.01);
    } finally {
      await r.close();
    }
  });

  it('estimateDownloadSizes_deflatedDex_countsItsBytesDeflatedWholeAndProvesTheCrc', async () => {
    // A deflated dex under 8 MiB is inflated in one job and deflated whole: the universal APK's
    // figure is its deflated size, as when it was inflated as a stream. A wrong CRC fails the
    // estimate (no figures), as any unreadable entry does.
    const dex = Buffer.concat([Buffer.from('dex\n035\0'), randomish(300_000, 7), Buffer.alloc(200_000, 0x41)]);
    const build = (crc?: number): Promise<ZipReader> =>
      ZipReader.open(tmp.file(`dex${crc ?? ''}.apk`, buildZip([...tinyApkEntries(), { name: 'classes2.dex', data: dex, method: 8, ...(crc === undefined ? {} : { cd: { crc }, local: { crc } }) }])));
    const good = await build();
    const without = await ZipReader.open(tmp.file('nodex.apk', buildZip(tinyApkEntries())));
    try {
      const dexEntry = good.get('classes2.dex')!;
      const [withDex] = await estimateDownloadSizes(good, routeEntries(good));
      const [noDex] = await estimateDownloadSizes(without, routeEntries(without));
      const deflated = Math.min(Math.round(deflateRawSync(dex, { level: 6 }).length * 0.96), dexEntry.compressedSize);
      // The dex's figure plus its zip overhead: 48 bytes and 0.6 per name character, rounded up.
      expect(withDex.apkBytes - noDex.apkBytes).to.equal(deflated + 48 + Math.ceil(0.6 * 'classes2.dex'.length));
      expect(good.isVerified(dexEntry)).to.equal(true);
    } finally {
      await good.close();
      await without.close();
    }
    const bad = await build(0x12345678);
    try {
      expect(await estimateDownloadSizes(bad, routeEntries(bad))).to.deep.equal([]);
    } finally {
      await bad.close();
    }
  });

  it('convertApk_report_carriesDownloadSizes', async () => {
    const apk = tmp.file('tiny.apk', buildZip(tinyApkEntries()));
    const report = await convertApk(apk, tmp.file('tiny.aab'));
    expect(report.downloadSizes).to.have.length(3);
  });
});

describe('size: estimate against bundletool build-apks + get-size total', function () {
  this.timeout(20 * 60_000);

  it('estimateDownloadSizes_eachCorpusApk_within5PercentOfBundletool', async function () {
    const oracles = requireOracles(this, 'java', 'bundletoolJar', 'aapt2');
    const corpus = listCorpus();
    if (!corpus || corpus.length === 0) missingPrerequisite(this, 'APK corpus');
    const tmp = new TempDir();
    const specs = DEVICE_PROFILES.map((d) => {
      const file = tmp.file(`${d.id}.json`);
      writeFileSync(file, JSON.stringify({ supportedAbis: d.abis, supportedLocales: [d.locale], screenDensity: d.density, sdkVersion: d.sdk }));
      return file;
    });
    const rows: string[] = [];
    const failures: string[] = [];
    const bt = (...args: string[]) => bundletool(oracles, args);
    try {
      await pool(corpus, PARALLELISM, async (apk: CorpusApk) => {
        const aab = join(tmp.path, `${apk.name}.aab`);
        const apks = join(tmp.path, `${apk.name}.apks`);
        const report = await convertApk(apk.path, aab);
        await bt('build-apks', `--bundle=${aab}`, `--output=${apks}`, `--aapt2=${oracles.aapt2}`);
        for (let i = 0; i < DEVICE_PROFILES.length; i++) {
          const ours: DeviceDownloadSize = report.downloadSizes[i];
          let theirs: number | undefined;
          try {
            const out = await bt('get-size', 'total', `--apks=${apks}`, `--device-spec=${specs[i]}`);
            theirs = Number(out.stdout.toString('utf8').trim().split('\n').pop()!.split(',').pop());
          } catch {
            theirs = undefined; // bundletool: no APK matches this device
          }
          const id = `${apk.name} ${DEVICE_PROFILES[i].id}`;
          if (theirs === undefined) {
            if (ours.compatible) failures.push(`${id}: bundletool finds no matching APKs, we say compatible`);
            rows.push(`${id}: incompatible`);
            continue;
          }
          const err = ours.bundleBytes / theirs - 1;
          rows.push(`${id}: ours ${ours.bundleBytes} bundletool ${theirs} (${(err * 100).toFixed(1)}%)`);
          if (!ours.compatible || Math.abs(err) > TOLERANCE) failures.push(rows[rows.length - 1]);
        }
      });
    } finally {
      tmp.cleanup();
    }
    const worst = rows.map((r) => Math.abs(Number(/\((-?[\d.]+)%\)/.exec(r)?.[1] ?? 0))).reduce((a, b) => Math.max(a, b), 0);
    console.log(`      size estimate vs bundletool: ${rows.length} device checks, worst ${worst.toFixed(1)}%, ${failures.length} outside ±${TOLERANCE * 100}%`);
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });
});

describe('size: sampling plan', () => {
  const entry = (name: string, method: number, uncompressedSize: number): ZipEntry => ({
    index: 0, name, rawName: name, isDirectory: false, method, flags: 0, crc32: 0,
    compressedSize: Math.round(uncompressedSize / 3), uncompressedSize, localHeaderOffset: 0, dataLimit: 0,
  });
  const MB = 1024 * 1024;

  it('samplingPlan_ordinaryApk_redeflatesEverythingWithFullWindows', () => {
    const plan = samplingPlan([entry('classes.dex', 8, 7 * MB), entry('assets/a.bin', 0, 3 * MB)]);
    expect(plan).to.deep.equal({ redeflateCompressed: true, windows: 16 });
  });

  it('samplingPlan_hugeDeflatedAssets_takesThemAtTheirCompressedSize', () => {
    const entries = Array.from({ length: 40 }, (_, i) => entry(`assets/d${i}.txt`, 8, 6 * MB));
    expect(samplingPlan(entries)).to.deep.equal({ redeflateCompressed: false, windows: 16 });
  });

  it('samplingPlan_manyMidSizeStoredAssets_windowedWithinBudget', () => {
    // Entries smaller than 16 windows but many of them (the bench's grown APK): each gets fewer
    // windows, so the total really stays within the budget.
    const entries = Array.from({ length: 16 }, (_, i) => entry(`assets/s${i}.bin`, 0, 2_100_000));
    const plan = samplingPlan(entries);
    expect(plan).to.deep.equal({ redeflateCompressed: false, windows: 6 });
    expect(entries.reduce((n, e) => n + sampledBytes(e, plan), 0)).to.be.at.most(24 * MB);
  });

  it('samplingPlan_hugeStoredAssets_fewerWindowsWithinBudget', () => {
    const entries = Array.from({ length: 24 }, (_, i) => entry(`assets/s${i}.bin`, 0, 8 * MB));
    const plan = samplingPlan(entries);
    expect(plan.redeflateCompressed).to.equal(false);
    // 24 entries x windows x 256 KiB must stay within the 24 MiB budget
    expect(plan.windows).to.equal(4);
  });
});
