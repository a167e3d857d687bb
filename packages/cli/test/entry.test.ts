/**
 * The built CLI's entry (src/start.ts) for a large local conversion: it starts the engine's
 * verifier thread before it loads the bundle. The conversion must come out the same, the code
 * cache written after it must be accepted by the next run (the thread's start must not disturb
 * V8's flags), and a thread started for nothing must not keep the process alive.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZipReader } from '../../converter/src/zip/index.js';
import { VERIFY_WORKER_FROM } from '../../converter/src/zip/verifierThread.js';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { cliEnv, runCli } from './helpers/cli.js';

describe('CLI entry: a large local conversion', function () {
  this.timeout(120_000);
  let home = '';

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'aabify-entry-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const aabify = (...args: string[]) => runCli(args, { env: cliEnv({ XDG_CACHE_HOME: home, AABIFY_URL: '', AABIFY_CODE_CACHE: '' }), timeoutMs: 60_000 });

  it('apkOverTheVerifierThreadSize_convertsAndTheCodeCacheHolds', async () => {
    const apk = join(home, 'big.apk');
    // Stored and incompressible: the input is as large on disk as the threshold asks.
    writeFileSync(apk, buildZip([...tinyApkEntries(), { name: 'assets/big.bin', data: randomBytes(VERIFY_WORKER_FROM + 1024 * 1024), method: 0 }]));
    expect(statSync(apk).size).to.be.at.least(VERIFY_WORKER_FROM);
    const out = join(home, 'big.aab');
    const first = await aabify('convert', '--local', apk, '-o', out, '--json');
    expect(first.status, first.stderr).to.equal(0);
    const aab = await ZipReader.open(out);
    try {
      const asset = aab.entries.find((e) => e.name === 'base/assets/big.bin');
      expect(asset?.uncompressedSize).to.equal(VERIFY_WORKER_FROM + 1024 * 1024);
      expect(aab.entries.some((e) => e.name === 'base/manifest/AndroidManifest.xml')).to.equal(true);
    } finally {
      await aab.close();
    }
    const firstAab = readFileSync(out);
    const cacheDir = join(home, 'aabify', 'code-cache');
    const [cache] = readdirSync(cacheDir);
    expect(cache).to.match(/-convert\.bin$/);
    const written = readFileSync(join(cacheDir, cache!));

    const second = await aabify('convert', '--local', apk, '-o', out, '--overwrite', '--json');
    expect(second.status, second.stderr).to.equal(0);
    expect(readFileSync(out).equals(firstAab), 'the same AAB again').to.equal(true);
    // V8 accepted the cache: it was not rewritten.
    expect(readFileSync(join(cacheDir, cache!)).equals(written)).to.equal(true);
  });

  it('largeFileThatIsNotAZip_codedErrorAndTheProcessEnds', async () => {
    // The entry starts the thread on the file's size alone; the engine then refuses the file and
    // never takes the thread. The process must still end (the run is killed after 60 s).
    const bogus = join(home, 'bogus.apk');
    writeFileSync(bogus, Buffer.alloc(VERIFY_WORKER_FROM + 1024, 0x41));
    const out = join(home, 'bogus.aab');
    const r = await aabify('convert', '--local', bogus, '-o', out);
    expect(r.status, r.stderr).to.equal(1);
    expect(r.stderr).to.contain('erro: O arquivo não é um APK válido (não é um arquivo ZIP). [NOT_A_ZIP]');
    expect(existsSync(out)).to.equal(false);
  });
});
