import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync, deflateRawSync } from 'node:zlib';
import { ConverterError, type ConverterErrorCode } from '../src/errors.js';
import { ChunkDigests, contentDigest } from '../src/sign/apk.js';
import { BackgroundVerifier, VerifierThreads, ZipReader, ZipWriter, crc32, crc32Update, normaliseEntryName } from '../src/zip/index.js';
import { VERIFY_WORKER_FROM } from '../src/zip/verify.js';
import { prestartVerifierThread } from '../src/zip/verifierThread.js';
import type { Worker } from 'node:worker_threads';
import { buildZip, TempDir, type BuildEntry, type BuildOptions } from './helpers/zipBuilder.js';
import type { ZipLimits } from '../src/zip/limits.js';

async function expectCode(p: Promise<unknown>, code: ConverterErrorCode): Promise<ConverterError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(ConverterError);
    expect((e as ConverterError).code, (e as ConverterError).detail).to.equal(code);
    return e as ConverterError;
  }
  throw new Error(`expected ${code}, nothing thrown`);
}

describe('zip', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = new TempDir();
  });
  afterEach(() => tmp.cleanup());

  let n = 0;
  async function openZip(entries: BuildEntry[], opts: BuildOptions = {}, limits: Partial<ZipLimits> = {}): Promise<ZipReader> {
    return ZipReader.open(tmp.file(`z${n++}.zip`, buildZip(entries, opts)), limits);
  }
  async function readAll(entries: BuildEntry[], opts: BuildOptions = {}): Promise<void> {
    const r = await openZip(entries, opts);
    try {
      for (const e of r.entries) if (!e.isDirectory) await r.read(e);
    } finally {
      await r.close();
    }
  }

  describe('crc32', () => {
    it('crc32_checkString_matchesStandardVector', () => {
      expect(crc32(Buffer.from('123456789'))).to.equal(0xcbf43926);
      expect(crc32(new Uint8Array(0))).to.equal(0);
    });
    it('crc32_randomBuffers_matchGzipTrailer', () => {
      for (const size of [1, 7, 8, 9, 1000, 65537]) {
        const buf = randomBytes(size);
        const gz = gzipSync(buf);
        expect(crc32(buf)).to.equal(gz.readUInt32LE(gz.length - 8));
        expect(crc32Update(crc32(buf.subarray(0, 3)), buf.subarray(3))).to.equal(crc32(buf));
      }
    });
  });

  describe('names', () => {
    it('normaliseEntryName_emptyAndDotSegments_collapsed', () => {
      expect(normaliseEntryName('a//b/./c')).to.deep.equal({ name: 'a/b/c', isDirectory: false });
      expect(normaliseEntryName('res/')).to.deep.equal({ name: 'res', isDirectory: true });
    });
    it('normaliseEntryName_everyMixOfSegments_sameAsSplittingAndJoining', () => {
      // Canonical names skip the splitting: every combination of awkward segments must still
      // come out as splitting on "/" and dropping empty and "." segments would give, or be refused.
      const parts = ['a', 'res', '', '.', '..', '.a', '...', 'a.', 'b\\c'];
      const names: string[] = [];
      for (const x of parts) for (const y of parts) for (const z of parts) names.push(`${x}/${y}/${z}`, `${x}/${y}`, `${x}${y}/`, x);
      for (const raw of names.filter((n) => n !== '' && !n.startsWith('/'))) {
        const segments = raw.split(/[\\/]/);
        const expected = segments.includes('..')
          ? 'UNSAFE_PATH'
          : { name: raw.split('/').filter((s) => s !== '' && s !== '.').join('/'), isDirectory: raw.endsWith('/') };
        let got: unknown;
        try {
          got = normaliseEntryName(raw);
        } catch (e) {
          got = (e as ConverterError).code;
        }
        const refused = expected !== 'UNSAFE_PATH' && expected.name === '' && !expected.isDirectory ? 'UNSAFE_PATH' : expected;
        expect(got, JSON.stringify(raw)).to.deep.equal(refused);
      }
    });
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', '\\x', 'a\\..\\b', 'C:/x', 'a\u0000b', '']) {
      it(`normaliseEntryName_${JSON.stringify(bad)}_unsafePath`, () => {
        expect(() => normaliseEntryName(bad)).to.throw(ConverterError).with.property('code', 'UNSAFE_PATH');
      });
    }
  });

  describe('reader', () => {
    it('open_storedAndDeflatedEntries_readsContent', async () => {
      const r = await openZip([
        { name: 'a.txt', data: 'hello', method: 0 },
        { name: 'dir/', data: '', method: 0 },
        { name: 'dir/b.bin', data: 'x'.repeat(5000) },
      ], { comment: 'a comment', gap: randomBytes(100) });
      expect(r.entries.map((e) => e.name)).to.deep.equal(['a.txt', 'dir', 'dir/b.bin']);
      expect(r.entries[1].isDirectory).to.equal(true);
      expect((await r.read(r.get('a.txt')!)).toString()).to.equal('hello');
      expect((await r.read(r.get('dir/b.bin')!)).toString()).to.equal('x'.repeat(5000));
      const streamed: Buffer[] = [];
      for await (const c of r.chunks(r.get('dir/b.bin')!)) streamed.push(c);
      expect(Buffer.concat(streamed).toString()).to.equal('x'.repeat(5000));
      await r.close();
    });
    it('open_zip64Records_readsSizesFromExtraFields', async () => {
      const r = await openZip([{ name: 'a', data: 'zip64 content' }, { name: 'b', data: 'more', method: 0 }], { zip64: true });
      expect(r.entries.map((e) => [e.name, e.uncompressedSize])).to.deep.equal([['a', 13], ['b', 4]]);
      expect((await r.read(r.entries[0])).toString()).to.equal('zip64 content');
      expect((await r.read(r.entries[1])).toString()).to.equal('more');
      await r.close();
    });
    it('open_randomBytes_notAZip', async () => {
      await expectCode(ZipReader.open(tmp.file('r.bin', randomBytes(5000))), 'NOT_A_ZIP');
      await expectCode(ZipReader.open(tmp.file('e.bin', Buffer.alloc(0))), 'NOT_A_ZIP');
    });
    it('open_cutInHalf_truncatedZip', async () => {
      const zip = buildZip([{ name: 'a', data: randomBytes(3000) }, { name: 'b', data: 'b' }]);
      await expectCode(ZipReader.open(tmp.file('t.zip', zip.subarray(0, zip.length >> 1))), 'TRUNCATED_ZIP');
    });
    it('open_centralDirectoryPastEnd_truncatedZip', async () => {
      const zip = buildZip([{ name: 'a', data: 'a' }]);
      zip.writeUInt32LE(zip.readUInt32LE(zip.length - 6) + 1000, zip.length - 6);
      await expectCode(ZipReader.open(tmp.file('t.zip', zip)), 'TRUNCATED_ZIP');
    });
    it('open_encryptedFlag_encryptedEntry', async () => {
      await expectCode(openZip([{ name: 'a', data: 'a', cd: { flags: 1 }, local: { flags: 1 } }]), 'ENCRYPTED_ENTRY');
      await expectCode(openZip([{ name: 'a', data: 'a', cd: { method: 99 } }]), 'ENCRYPTED_ENTRY');
    });
    it('open_bzip2Method_unsupportedCompression', async () => {
      await expectCode(openZip([{ name: 'a', data: 'a', cd: { method: 12 }, local: { method: 12 } }]), 'UNSUPPORTED_COMPRESSION');
    });
    it('open_dotDotName_unsafePath', async () => {
      await expectCode(openZip([{ name: 'assets/../../evil', data: 'a' }]), 'UNSAFE_PATH');
      await expectCode(openZip([{ name: 'a\\..\\..\\evil', data: 'a' }]), 'UNSAFE_PATH');
    });
    it('open_namesEqualAfterNormalisation_duplicateEntry', async () => {
      await expectCode(openZip([{ name: 'a/b', data: '1' }, { name: 'a//b', data: '2' }]), 'DUPLICATE_ENTRY');
      await expectCode(openZip([{ name: 'x', data: '1' }, { name: 'x', data: '2' }]), 'DUPLICATE_ENTRY');
    });
    it('open_moreEntriesThanLimit_tooManyEntries', async () => {
      const entries = ['a', 'b', 'c', 'd'].map((name) => ({ name, data: name }));
      await expectCode(openZip(entries, {}, { maxEntries: 3 }), 'TOO_MANY_ENTRIES');
    });
    it('open_declaredInflatedOverLimit_inflatedTooLarge', async () => {
      await expectCode(openZip([{ name: 'a', data: 'x'.repeat(600) }, { name: 'b', data: 'y'.repeat(600) }], {}, { maxTotalInflatedBytes: 1000 }), 'INFLATED_TOO_LARGE');
      await expectCode(openZip([{ name: 'a', data: 'x'.repeat(600) }], {}, { maxEntryInflatedBytes: 500 }), 'INFLATED_TOO_LARGE');
    });
    it('open_highRatioEntry_suspiciousCompression', async () => {
      const limits = { compressionRatioThresholdBytes: 1000, maxCompressionRatio: 50 };
      await expectCode(openZip([{ name: 'zeros', data: Buffer.alloc(100_000) }], {}, limits), 'SUSPICIOUS_COMPRESSION');
    });
    it('open_overlappingEntries_corruptZip', async () => {
      const data = Buffer.alloc(50_000);
      await expectCode(openZip([{ name: 'a', data }, { name: 'b', data, cd: { offset: 0 } }]), 'CORRUPT_ZIP');
    });
    it('open_declaredCountWrong_corruptZip', async () => {
      await expectCode(openZip([{ name: 'a', data: 'a' }], { declaredCount: 2 }), 'CORRUPT_ZIP');
    });
    it('read_declaredSizeSmallerThanContent_sizeMismatch', async () => {
      await expectCode(readAll([{ name: 'a', data: 'x'.repeat(100), cd: { usize: 10 }, local: { usize: 10 } }]), 'SIZE_MISMATCH');
      await expectCode(readAll([{ name: 'a', data: 'x'.repeat(100), cd: { usize: 1000 }, local: { usize: 1000 } }]), 'SIZE_MISMATCH');
    });
    it('read_bigEntryLyingSize_sizeMismatchWhileStreaming', async () => {
      const data = randomBytes(3 * 1024 * 1024);
      await expectCode(readAll([{ name: 'a', data, cd: { usize: 1000 }, local: { usize: 1000 } }]), 'SIZE_MISMATCH');
    });
    it('read_compressedSizePastNextEntry_sizeMismatch', async () => {
      await expectCode(readAll([{ name: 'a', data: 'aaaa', cd: { csize: 5000 }, local: { csize: 5000 } }, { name: 'b', data: 'b' }]), 'SIZE_MISMATCH');
    });
    it('read_wrongCrc_corruptEntry', async () => {
      await expectCode(readAll([{ name: 'a', data: 'hello', cd: { crc: 1 }, local: { crc: 1 } }]), 'CORRUPT_ENTRY');
    });
    it('read_midSizeDeflatedEntries_provenOnThePoolWithTheSameCodes', async () => {
      // Between 256 KiB and 8 MiB inflated (a dex), a deflated entry is inflated in one thread-pool
      // job, even when its compressed bytes are read at once: the same checks as any read.
      const dex = Buffer.concat([randomBytes(300_000), Buffer.alloc(1_500_000, 7)]);
      const r = await openZip([
        { name: 'classes.dex', data: dex },
        { name: 'crc', data: dex, cd: { crc: 7 }, local: { crc: 7 } },
        { name: 'long', data: dex, cd: { usize: 400_000 }, local: { usize: 400_000 } },
        { name: 'short', data: dex, cd: { usize: 2_000_000 }, local: { usize: 2_000_000 } },
      ]);
      const [ok, crc, long, short] = r.entries;
      expect((await r.read(ok!)).equals(dex)).to.equal(true);
      expect(r.isVerified(ok!)).to.equal(true);
      await expectCode(r.read(crc!), 'CORRUPT_ENTRY');
      await expectCode(r.read(long!), 'SIZE_MISMATCH');
      await expectCode(r.read(short!), 'SIZE_MISMATCH');
      expect([crc, long, short].map((e) => r.isVerified(e!))).to.deep.equal([false, false, false]);
      await r.close();
    });
    it('read_sameEntryTwiceAtOnce_oneInflatingSharedThenReadAgain', async () => {
      const dex = Buffer.concat([randomBytes(300_000), Buffer.alloc(1_500_000, 7)]);
      const r = await openZip([{ name: 'classes.dex', data: dex }]);
      const [a, b] = await Promise.all([r.read(r.entries[0]!), r.read(r.entries[0]!)]);
      expect(a).to.equal(b); // the same bytes, inflated once
      const again = await r.read(r.entries[0]!);
      expect(again).to.not.equal(a);
      expect(again.equals(dex)).to.equal(true);
      await r.close();
    });
    it('read_garbageDeflateData_corruptEntry', async () => {
      await expectCode(readAll([{ name: 'a', data: 'hello', body: Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]) }]), 'CORRUPT_ENTRY');
    });
    it('read_localNameDiffers_entryHeaderMismatch', async () => {
      await expectCode(readAll([{ name: 'AndroidManifest.xml', data: 'a', local: { name: 'AndroidManifest.xmk' } }]), 'ENTRY_HEADER_MISMATCH');
    });
    it('read_localMethodDiffers_entryHeaderMismatch', async () => {
      await expectCode(readAll([{ name: 'a', data: 'abc', method: 0, local: { method: 8 } }]), 'ENTRY_HEADER_MISMATCH');
    });
    it('read_localSizesDiffer_entryHeaderMismatch', async () => {
      await expectCode(readAll([{ name: 'a', data: 'abc', method: 0, local: { usize: 2, csize: 2 } }]), 'ENTRY_HEADER_MISMATCH');
    });
    it('rawChunks_abortedSignal_aborted', async () => {
      const r = await openZip([{ name: 'a', data: 'abc' }]);
      const ctl = new AbortController();
      ctl.abort();
      await expectCode((async () => {
        for await (const _ of r.rawChunks(r.entries[0], { signal: ctl.signal })) void _;
      })(), 'ABORTED');
      await r.close();
    });
    it('readStoredRange_storedEntry_bytesAtThatRange', async () => {
      const r = await openZip([
        { name: 's', data: '0123456789', method: 0 },
        { name: 'd', data: 'x'.repeat(100) },
      ]);
      expect((await r.readStoredRange(r.entries[0], 3, 4)).toString()).to.equal('3456');
      expect((await r.readStoredRange(r.entries[0], 0, 10)).toString()).to.equal('0123456789');
      await expectCode(r.readStoredRange(r.entries[0], 8, 4), 'INTERNAL');
      await expectCode(r.readStoredRange(r.entries[1], 0, 1), 'INTERNAL');
      await r.close();
    });
  });

  describe('writer', () => {
    /** Two stored entries for the APK chunk-digest tests: random bytes (they do not deflate) and text. */
    const openChunkSource = (): Promise<ZipReader> =>
      openZip([
        { name: 'random', data: randomBytes(2_600_000), method: 0 },
        { name: 'text', data: 'x'.repeat(3_000_000), method: 0 },
      ]);

    it('onWrite_apkChunkDigests_equalTheDigestReadBack_evenAfterARewrite', async () => {
      const MiB = 1024 * 1024;
      const src = await openChunkSource();
      for (const rewind of [false, true]) {
        const path = tmp.file(`chunks-${rewind}.zip`);
        const chunks = new ChunkDigests('sha256');
        const w = await ZipWriter.create(path, { onWrite: (b, at) => chunks.written(b, at) });
        await w.addBuffer('a.bin', randomBytes(1_700_000), { compress: false });
        // Random bytes do not deflate: written deflated, then over again stored.
        if (rewind) expect(await w.addDeflated('random', src, src.entries[0], 6, () => false)).to.equal(false);
        await w.addRaw('text', src, src.entries[1]);
        await w.finish({
          beforeCentralDirectory: async (t) => {
            const known = await chunks.before(t.entriesEnd);
            const seen = contentDigest(path, t.entriesEnd, t.centralDirectory, t.endRecord, 'sha256', known);
            const readBack = contentDigest(path, t.entriesEnd, t.centralDirectory, t.endRecord, 'sha256');
            expect(seen.toString('hex'), `rewind ${rewind}`).to.equal(readBack.toString('hex'));
            if (rewind) expect(known.length).to.equal(1); // the chunks from the rewritten bytes on are read back
            else expect(known.length).to.equal(Math.floor(t.entriesEnd / MiB));
            return new Uint8Array(0);
          },
        });
      }
      await src.close();
    });
    it('apkChunkDigestsByAVerifierThread_everyChunkDigestedAsReadBack_evenAfterARewrite', async () => {
      const MiB = 1024 * 1024;
      const src = await openChunkSource();
      for (const rewind of [false, true]) {
        const pool = VerifierThreads.forInput(VERIFY_WORKER_FROM, 1, true)!;
        const path = tmp.file(`thread-chunks-${rewind}.zip`);
        let chunks: ChunkDigests | undefined;
        const w = await ZipWriter.create(path, { onOpen: (fd) => (chunks = new ChunkDigests('sha256', pool.chunkHasher(fd, 'sha256'))), onWrite: (b, at) => chunks!.written(b, at) });
        await w.addBuffer('a.bin', randomBytes(1_700_000), { compress: false });
        // Past the thread's first step (4 MiB) before the rewind: it must hash those chunks again.
        if (rewind) expect(await w.addDeflated('random', src, src.entries[0], 6, () => false)).to.equal(false);
        await w.addRaw('text', src, src.entries[1]);
        await w.finish({
          beforeCentralDirectory: async (t) => {
            const known = await chunks!.before(t.entriesEnd);
            expect(known.length, 'every chunk from the thread').to.equal(Math.ceil(t.entriesEnd / MiB));
            const seen = contentDigest(path, t.entriesEnd, t.centralDirectory, t.endRecord, 'sha256', known);
            const readBack = contentDigest(path, t.entriesEnd, t.centralDirectory, t.endRecord, 'sha256');
            expect(seen.toString('hex'), `rewind ${rewind}`).to.equal(readBack.toString('hex'));
            return new Uint8Array(0);
          },
        });
        chunks!.dispose();
        await pool.close();
      }
      await src.close();
    });
    it('prestartedVerifierThread_takenByTheNextPoolInsteadOfANewOne', async () => {
      // What the release CLI's entry starts before loading the engine (cli/src/start.ts).
      prestartVerifierThread();
      const prestarted = (globalThis as Record<symbol, Worker | undefined>)[Symbol.for('aabify.prestartedVerifierThread')];
      expect(prestarted, 'a thread started ahead').to.not.equal(undefined);
      const pool = VerifierThreads.forInput(VERIFY_WORKER_FROM, 1, true)!;
      const taken = pool.take()!;
      expect(taken.threadId).to.equal(prestarted!.threadId);
      // Taken once: the next pool starts its own.
      const next = VerifierThreads.forInput(VERIFY_WORKER_FROM, 1, true)!;
      expect(next.take()!.threadId).to.not.equal(prestarted!.threadId);
      // And it works as any other: it proves a copied entry.
      const src = await openZip([{ name: 'big', data: randomBytes(300_000), method: 8 }]);
      pool.give(taken);
      const verifier = new BackgroundVerifier(src, src.entries, undefined, { pool, threads: 1, workerFrom: 0 });
      expect(await verifier.settle(src.entries[0]!), 'proven by the prestarted thread').to.equal(true);
      await verifier.cancel();
      await Promise.all([pool.close(), next.close()]);
      await src.close();
    });
    it('apkChunkDigests_threadEnded_readBackHere', async () => {
      const pool = VerifierThreads.forInput(VERIFY_WORKER_FROM, 1, true)!;
      const dead = pool.take()!;
      await dead.terminate();
      pool.give(dead);
      const path = tmp.file('dead-thread-chunks.zip');
      let chunks: ChunkDigests | undefined;
      const w = await ZipWriter.create(path, { onOpen: (fd) => (chunks = new ChunkDigests('sha256', pool.chunkHasher(fd, 'sha256'))), onWrite: (b, at) => chunks!.written(b, at) });
      await w.addBuffer('a.bin', randomBytes(5_500_000), { compress: false });
      await w.finish({
        beforeCentralDirectory: async (t) => {
          const known = await chunks!.before(t.entriesEnd);
          expect(known).to.deep.equal([]);
          const expected = contentDigest(path, t.entriesEnd, t.centralDirectory, t.endRecord, 'sha256');
          expect(contentDigest(path, t.entriesEnd, t.centralDirectory, t.endRecord, 'sha256', known).equals(expected)).to.equal(true);
          return new Uint8Array(0);
        },
      });
      chunks!.dispose();
      await pool.close();
    });
    async function writeSample(path: string, src: ZipReader): Promise<void> {
      const w = await ZipWriter.create(path);
      await w.addBuffer('new/deflated.txt', Buffer.from('z'.repeat(1000)));
      await w.addBuffer('new/stored.bin', Buffer.from('tiny'), { compress: false });
      await w.addBuffer('ünïcode/名前.txt', Buffer.from('utf8'));
      for (const e of src.entries) await w.addRaw(`copy/${e.name}`, src, e);
      await w.finish();
    }
    it('addRaw_sourceEntries_identicalCompressedBytesCrcAndMethod', async () => {
      const big = randomBytes(700_000);
      const src = await openZip([
        { name: 'stored.png', data: big, method: 0 },
        { name: 'deflated.dex', data: Buffer.concat([big, Buffer.alloc(300_000)]) },
        { name: 'odd-level', data: 'abc'.repeat(999), body: deflateRawSync(Buffer.from('abc'.repeat(999)), { level: 1 }) },
      ]);
      const out = tmp.file('out.zip');
      await writeSample(out, src);
      const dst = await ZipReader.open(out);
      for (const e of src.entries) {
        const copy = dst.get(`copy/${e.name}`)!;
        expect([copy.method, copy.crc32, copy.compressedSize, copy.uncompressedSize]).to.deep.equal([e.method, e.crc32, e.compressedSize, e.uncompressedSize]);
        const a: Buffer[] = [];
        const b: Buffer[] = [];
        for await (const c of src.rawChunks(e)) a.push(c);
        for await (const c of dst.rawChunks(copy)) b.push(c);
        expect(Buffer.concat(b).equals(Buffer.concat(a))).to.equal(true);
        expect((await dst.read(copy)).equals(await src.read(e))).to.equal(true);
      }
      expect((await dst.read(dst.get('new/deflated.txt')!)).toString()).to.equal('z'.repeat(1000));
      expect(dst.get('new/deflated.txt')!.method).to.equal(8);
      expect(dst.get('new/stored.bin')!.method).to.equal(0);
      expect(dst.get('ünïcode/名前.txt')!.flags & 0x800).to.equal(0x800);
      expect(dst.get('new/stored.bin')!.flags & 0x800).to.equal(0);
      await src.close();
      await dst.close();
    });
    it('finish_sameInputTwice_identicalBytes', async () => {
      const src = await openZip([{ name: 'a', data: randomBytes(10_000) }, { name: 'b', data: 'b', method: 0 }]);
      await writeSample(tmp.file('1.zip'), src);
      await new Promise((r) => setTimeout(r, 1100));
      await writeSample(tmp.file('2.zip'), src);
      expect(readFileSync(tmp.file('1.zip')).equals(readFileSync(tmp.file('2.zip')))).to.equal(true);
      await src.close();
    });
    it('finish_forceZip64_readableZip64Archive', async () => {
      const out = tmp.file('z64.zip');
      const w = await ZipWriter.create(out, { forceZip64: true });
      await w.addBuffer('a', Buffer.from('zip64!'));
      await w.finish();
      const buf = readFileSync(out);
      expect(buf.indexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).to.be.greaterThan(0);
      const r = await ZipReader.open(out);
      expect((await r.read(r.get('a')!)).toString()).to.equal('zip64!');
      await r.close();
    });
    it('finish_moreThan65535Entries_zip64EndRecordsReadBack', async () => {
      const out = tmp.file('many.zip');
      const w = await ZipWriter.create(out);
      for (let i = 0; i < 70_000; i++) await w.addBuffer(`f/${i}`, Buffer.from([i & 0xff]), { compress: false });
      await w.finish();
      const r = await ZipReader.open(out);
      expect(r.entries.length).to.equal(70_000);
      expect([...(await r.read(r.get('f/69999')!))]).to.deep.equal([69999 & 0xff]);
      await r.close();
    });
    it('create_existingFile_ioError', async () => {
      const p = tmp.file('exists.zip', Buffer.from('x'));
      await expectCode(ZipWriter.create(p), 'IO_ERROR');
    });
    it('addRaw_sourceCrcLies_corruptEntry', async () => {
      const src = await openZip([{ name: 'a', data: randomBytes(5000), cd: { crc: 7 }, local: { crc: 7 } }]);
      const w = await ZipWriter.create(tmp.file('o.zip'));
      await expectCode(w.addRaw('a', src, src.entries[0]), 'CORRUPT_ENTRY');
      await w.destroy();
      await src.close();
    });
    it('addRaw_sourceSizeLies_sizeMismatch', async () => {
      const src = await openZip([{ name: 'a', data: Buffer.alloc(200_000), cd: { usize: 10 }, local: { usize: 10 } }]);
      const w = await ZipWriter.create(tmp.file('o.zip'));
      await expectCode(w.addRaw('a', src, src.entries[0]), 'SIZE_MISMATCH');
      await w.destroy();
      await src.close();
    });
    it('addRaw_storedEntryCrcOrSizeLies_checkedWhileCopied', async () => {
      const src = await openZip([
        { name: 'crc', data: randomBytes(3_000_000), method: 0, cd: { crc: 7 }, local: { crc: 7 } },
        { name: 'good', data: randomBytes(2_500_000), method: 0 },
      ]);
      const w = await ZipWriter.create(tmp.file('s.zip'));
      await expectCode(w.addRaw('crc', src, src.entries[0]), 'CORRUPT_ENTRY');
      await w.addRaw('good', src, src.entries[1]);
      await w.destroy();
      await src.close();
    });
    it('finish_sha256_isTheArchiveFilesDigest', async () => {
      const src = await openZip([{ name: 'big', data: randomBytes(3_000_000), method: 0 }, { name: 'd', data: 'd'.repeat(5000) }]);
      const out = tmp.file('h.zip');
      const w = await ZipWriter.create(out);
      await w.addBuffer('a', Buffer.from('a'.repeat(2000)));
      for (const e of src.entries) await w.addRaw(e.name, src, e, { verify: false });
      const { size, sha256 } = await w.finish();
      const bytes = readFileSync(out);
      expect(size).to.equal(bytes.length);
      expect(sha256).to.equal(createHash('sha256').update(bytes).digest('hex'));
      await src.close();
    });
    it('addFile_crcPatchedAfterwards_sha256StillTheFilesDigest', async () => {
      const file = tmp.file('obb.bin', randomBytes(2_500_000));
      const out = tmp.file('f.zip');
      const w = await ZipWriter.create(out);
      await w.addBuffer('first', Buffer.from('first'));
      await w.addFile('obb', file, 2_500_000);
      await w.addBuffer('last', Buffer.from('last'));
      const { sha256 } = await w.finish();
      expect(sha256).to.equal(createHash('sha256').update(readFileSync(out)).digest('hex'));
      const r = await ZipReader.open(out);
      expect((await r.read(r.get('obb')!)).equals(readFileSync(file))).to.equal(true);
      await r.close();
    });
    it('addFile_fileGrewSinceItsSizeWasTaken_ioError', async () => {
      const file = tmp.file('grown.bin', randomBytes(1000));
      const w = await ZipWriter.create(tmp.file('g.zip'));
      await expectCode(w.addFile('obb', file, 999), 'IO_ERROR');
      await w.destroy();
    });
  });

  describe('APK chunks hashed by a verifier thread', () => {
    const MiB = 1024 * 1024;
    /** Writes an APK-like archive past the hasher's steps with the pool's chunk hasher; the digests it gave and the read-back ones. */
    async function writeHashed(path: string, pool: VerifierThreads, during?: () => Promise<void>): Promise<{ known: Buffer[]; entriesEnd: number; content: string; readBack: string }> {
      let chunks: ChunkDigests | undefined;
      const w = await ZipWriter.create(path, { hash: false, onOpen: (fd) => (chunks = new ChunkDigests('sha256', pool.chunkHasher(fd, 'sha256'))), onWrite: (b, at) => chunks!.written(b, at) });
      await w.addBuffer('stored', randomBytes(6_000_000), { compress: false }); // the thread is taken and started
      await during?.();
      await w.addBuffer('more', randomBytes(1_000_000), { compress: false });
      let result: { known: Buffer[]; entriesEnd: number; content: string; readBack: string } | undefined;
      await w.finish({
        beforeCentralDirectory: async (t) => {
          const known = await chunks!.before(t.entriesEnd);
          const content = contentDigest(path, t.entriesEnd, t.centralDirectory, t.endRecord, 'sha256', known).toString('hex');
          const readBack = contentDigest(path, t.entriesEnd, t.centralDirectory, t.endRecord, 'sha256').toString('hex');
          result = { known, entriesEnd: t.entriesEnd, content, readBack };
          return new Uint8Array(0);
        },
      });
      chunks!.dispose();
      return result!;
    }

    it('verifierThreadGivenBack_provesThenHashesTheChunks', async () => {
      const pool = VerifierThreads.forInput(VERIFY_WORKER_FROM, 1, true)!;
      const r = await openZip([{ name: 'a', data: randomBytes(2_000_000) }, { name: 'b', data: Buffer.alloc(1_000_000, 5) }]);
      const v = new BackgroundVerifier(r, r.entries, undefined, { workerFrom: 0, pool, threads: 1 });
      expect(pool.size).to.equal(0);
      expect(await Promise.all(r.entries.map((e) => v.settle(e)))).to.deep.equal([true, true]);
      expect(pool.size).to.equal(1);
      const out = tmp.file('after-verifying.apk');
      const { known, entriesEnd, content, readBack } = await writeHashed(out, pool);
      expect(known.length).to.equal(Math.ceil(entriesEnd / MiB));
      expect(content).to.equal(readBack);
      await v.cancel();
      await r.close();
      await pool.close();
    });
    it('poolWithoutReuse_verifierThreadEndsWhenDone', async () => {
      const pool = VerifierThreads.forInput(VERIFY_WORKER_FROM, 1)!;
      const r = await openZip([{ name: 'a', data: randomBytes(1_000_000) }]);
      const v = new BackgroundVerifier(r, r.entries, undefined, { workerFrom: 0, pool, threads: 1 });
      expect(await v.settle(r.entries[0])).to.equal(true);
      expect(pool.size).to.equal(0);
      await v.cancel();
      await r.close();
      await pool.close();
    });
    it('threadEndedWhileHashing_chunksReadBackHere', async () => {
      const pool = VerifierThreads.forInput(VERIFY_WORKER_FROM, 1, true)!;
      const worker = pool.take()!;
      pool.give(worker);
      const { known, content, readBack } = await writeHashed(tmp.file('ended.apk'), pool, () => worker.terminate().then(() => undefined));
      expect(known).to.deep.equal([]);
      expect(content).to.equal(readBack);
      await pool.close();
    });
  });

  describe('background verifier in a worker thread', () => {
    const inWorker = { workerFrom: 0 };
    async function verdicts(r: ZipReader): Promise<(boolean | string)[]> {
      const v = new BackgroundVerifier(r, r.entries, undefined, inWorker);
      const out = await Promise.all(r.entries.map((e) => v.settle(e).catch((err: unknown) => (err instanceof ConverterError ? err.code : String(err)))));
      await v.cancel();
      return out;
    }
    it('goodStoredAndDeflatedEntries_provenAndMarkedVerified', async () => {
      const r = await openZip([
        { name: 'stored', data: randomBytes(2_200_000), method: 0 },
        { name: 'deflated', data: Buffer.concat([randomBytes(1_500_000), Buffer.alloc(2_000_000)]) },
        { name: 'empty', data: '' },
      ]);
      expect(await verdicts(r)).to.deep.equal([true, true, true]);
      expect(r.entries.map((e) => r.isVerified(e))).to.deep.equal([true, true, true]);
      await r.close();
    });
    it('lyingCrcSizeOrData_theSameCodesAsTheCopy', async () => {
      const r = await openZip([
        { name: 'crc', data: randomBytes(5000), cd: { crc: 7 }, local: { crc: 7 } },
        { name: 'stored-crc', data: 'abc', method: 0, cd: { crc: 7 }, local: { crc: 7 } },
        { name: 'size', data: Buffer.alloc(200_000), cd: { usize: 10 }, local: { usize: 10 } },
        { name: 'short', data: 'x'.repeat(100), cd: { usize: 1000 }, local: { usize: 1000 } },
        { name: 'garbage', data: 'hello', body: Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]) },
        { name: 'good', data: 'fine' },
      ]);
      expect(await verdicts(r)).to.deep.equal(['CORRUPT_ENTRY', 'CORRUPT_ENTRY', 'SIZE_MISMATCH', 'SIZE_MISMATCH', 'CORRUPT_ENTRY', true]);
      expect(r.isVerified(r.entries[0])).to.equal(false);
      await r.close();
    });
    it('entriesOverSeveralReadChunks_truncatedOrLyingCaughtAndTheNextStillProven', async () => {
      // Over 1 MiB compressed: inflated across several reads and many output chunks by one reused inflater.
      const big = Buffer.concat([randomBytes(2_500_000), Buffer.alloc(3_000_000, 1)]);
      const deflated = deflateRawSync(big);
      const r = await openZip([
        { name: 'truncated', data: big, body: deflated.subarray(0, deflated.length - 1000) },
        { name: 'longer', data: big, cd: { usize: big.length - 1 }, local: { usize: big.length - 1 } },
        { name: 'good', data: big },
        { name: 'exactChunk', data: randomBytes(256 * 1024) },
      ]);
      expect(await verdicts(r)).to.deep.equal(['CORRUPT_ENTRY', 'SIZE_MISMATCH', true, true]);
      await r.close();
    });
    it('zipInsideAnotherFile_readsAtTheSlicesOffset', async () => {
      const zip = buildZip([{ name: 'a', data: randomBytes(300_000) }, { name: 'b', data: 'b'.repeat(70_000), method: 0 }]);
      const path = tmp.file('outer.bin');
      writeFileSync(path, Buffer.concat([randomBytes(12_345), zip, randomBytes(99)]));
      const r = await ZipReader.open(path, {}, { offset: 12_345, length: zip.length });
      expect(await verdicts(r)).to.deep.equal([true, true]);
      await r.close();
    });
    it('cancelBeforeTheVerdicts_unverifiedNotFailed', async () => {
      const r = await openZip([{ name: 'a', data: randomBytes(4_000_000) }, { name: 'b', data: randomBytes(4_000_000) }]);
      const v = new BackgroundVerifier(r, r.entries, undefined, inWorker);
      await v.cancel();
      const settled = await Promise.all(r.entries.map((e) => v.settle(e)));
      expect(settled.every((x) => x === false || x === true)).to.equal(true);
      await r.close();
    });
    it('digestOption_eachEntrysUncompressedDigest_inAWorkerAndOnTheMainThread', async () => {
      const entries: BuildEntry[] = [
        { name: 'stored', data: randomBytes(1_300_000), method: 0 },
        { name: 'deflated', data: Buffer.concat([randomBytes(900_000), Buffer.alloc(2_500_000, 7)]) },
        { name: 'small', data: 'a'.repeat(5000) },
        { name: 'empty', data: '' },
      ];
      const expected = entries.map((e) => createHash('sha1').update(e.data ?? '').digest('hex'));
      for (const workerFrom of [0, Number.MAX_SAFE_INTEGER]) {
        const r = await openZip(entries);
        const v = new BackgroundVerifier(r, r.entries, undefined, { workerFrom, digest: 'sha1' });
        const got = await Promise.all(r.entries.map(async (e) => (await v.digest(e))?.toString('hex')));
        expect(got, workerFrom === 0 ? 'worker thread' : 'main thread').to.deep.equal(expected);
        await v.cancel();
        await r.close();
      }
    });
    it('twoThreads_everyEntryProvenAndDigestedWhicheverThreadTookIt', async () => {
      const entries: BuildEntry[] = [
        { name: 'stored', data: randomBytes(1_300_000), method: 0 },
        { name: 'deflated', data: Buffer.concat([randomBytes(900_000), Buffer.alloc(2_500_000, 7)]) },
        { name: 'small', data: 'a'.repeat(5000) },
        { name: 'crc', data: randomBytes(5000), cd: { crc: 7 }, local: { crc: 7 } },
        { name: 'empty', data: '' },
        { name: 'last', data: Buffer.concat([randomBytes(300_000), Buffer.alloc(700_000, 3)]) },
      ];
      const r = await openZip(entries);
      const v = new BackgroundVerifier(r, r.entries, undefined, { workerFrom: 0, threads: 2, digest: 'sha1' });
      const got = await Promise.all(r.entries.map((e) => v.digest(e).then((d) => d?.toString('hex'), (err: unknown) => (err as ConverterError).code)));
      const expected = entries.map((e) => (e.name === 'crc' ? 'CORRUPT_ENTRY' : createHash('sha1').update(e.data ?? '').digest('hex')));
      expect(got).to.deep.equal(expected);
      expect(r.entries.map((e) => r.isVerified(e))).to.deep.equal([true, true, true, false, true, true]);
      await v.cancel();
      await r.close();
    });
    it('digestOption_corruptEntry_throwsItsCodeNoDigest', async () => {
      for (const workerFrom of [0, Number.MAX_SAFE_INTEGER]) {
        const r = await openZip([{ name: 'crc', data: randomBytes(5000), cd: { crc: 7 }, local: { crc: 7 } }, { name: 'good', data: 'fine' }]);
        const v = new BackgroundVerifier(r, r.entries, undefined, { workerFrom, digest: 'sha256' });
        await expectCode(v.digest(r.entries[0]), 'CORRUPT_ENTRY');
        expect((await v.digest(r.entries[1]))?.toString('hex')).to.equal(createHash('sha256').update('fine').digest('hex'));
        await v.cancel();
        await r.close();
      }
    });
    it('callersSignalAborted_abortedForWhatWasNotProven', async () => {
      const r = await openZip([{ name: 'a', data: randomBytes(3_000_000) }, { name: 'b', data: randomBytes(3_000_000) }]);
      const ctl = new AbortController();
      const v = new BackgroundVerifier(r, r.entries, ctl.signal, inWorker);
      ctl.abort();
      const settled = await Promise.all(r.entries.map((e) => v.settle(e).catch((err: unknown) => (err as ConverterError).code)));
      expect(settled.every((x) => x === true || x === 'ABORTED')).to.equal(true);
      await v.cancel();
      await r.close();
    });
  });
});
