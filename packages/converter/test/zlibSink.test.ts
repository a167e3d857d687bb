import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { ConverterError } from '../src/errors.js';
import { ZipReader, deflateSink, deflatedByteCount, inflateSink } from '../src/zip/index.js';
import { drivesZlibDirectly } from '../src/zip/smallZlib.js';
import { buildZip, TempDir } from './helpers/zipBuilder.js';

/** Inputs of the kinds the engine streams through zlib: text, repeats, noise past one output chunk, nothing. */
function inputs(): Buffer[] {
  const text = readFileSync(fileURLToPath(import.meta.url));
  return [
    Buffer.alloc(0),
    text,
    Buffer.concat(Array.from({ length: 40 }, () => text)),
    Buffer.alloc(700 * 1024, 0x41),
    randomBytes(256 * 1024),
    // More than several output chunks, incompressible: many zlib calls per push.
    randomBytes(1500 * 1024),
  ];
}

/** `data` cut into pieces of `size` bytes (the last shorter). */
function pieces(data: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < data.length; at += size) out.push(data.subarray(at, at + size));
  return out;
}

/** Everything a sink handed out, copied (each chunk is valid only during the call). */
async function through(make: (onOutput: (b: Buffer) => void) => ReturnType<typeof inflateSink>, chunks: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  const sink = make((b) => out.push(Buffer.from(b)));
  try {
    for (const c of chunks) await sink.push(c);
    await sink.end();
  } finally {
    sink.close();
  }
  return Buffer.concat(out);
}

/** What a Node InflateRaw stream gives for the same chunks: its bytes, or its error's message and code. */
async function streamOutcome(chunks: Buffer[]): Promise<{ bytes?: string; error?: { message: string; code?: string } }> {
  const stream = createInflateRaw();
  const out: Buffer[] = [];
  stream.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  for (const c of chunks) stream.write(c);
  stream.end();
  try {
    await done;
    return { bytes: Buffer.concat(out).toString('hex') };
  } catch (e) {
    return { error: { message: (e as Error).message, code: (e as { code?: string }).code } };
  }
}

async function sinkOutcome(chunks: Buffer[]): Promise<{ bytes?: string; error?: { message: string; code?: string } }> {
  try {
    return { bytes: (await through(inflateSink, chunks)).toString('hex') };
  } catch (e) {
    return { error: { message: (e as Error).message, code: (e as { code?: string }).code } };
  }
}

describe('zlib sinks', () => {
  it('deflateSink_anyCutOfTheInput_theBytesOfDeflateRawSync', async () => {
    expect(drivesZlibDirectly(), 'the zlib handle is driven directly on this Node').to.equal(true);
    for (const data of inputs()) {
      for (const level of [6, 9]) {
        const expected = deflateRawSync(data, { level }).toString('hex');
        for (const size of [7 * 1024, 300 * 1024, Math.max(1, data.length)]) {
          const got = await through((onOutput) => deflateSink(level, onOutput), pieces(data, size));
          expect(got.toString('hex'), `${data.length} bytes in pieces of ${size}, level ${level}`).to.equal(expected);
        }
      }
    }
  });

  it('deflatedByteCount_theLengthOfDeflateRawSync', async () => {
    for (const data of [...inputs(), randomBytes(8 * 1024 * 1024)]) {
      expect(await deflatedByteCount(data, 6), `${data.length} bytes`).to.equal(deflateRawSync(data, { level: 6 }).length);
    }
  });

  it('inflateSink_anyCutOfTheStream_theOriginalBytes', async () => {
    for (const data of inputs()) {
      const deflated = deflateRawSync(data);
      for (const size of [1, 5000, 1024 * 1024]) {
        if (size === 1 && deflated.length > 20_000) continue; // a call per byte: the small inputs say it
        const got = await through(inflateSink, pieces(deflated, size));
        expect(got.equals(data), `${data.length} bytes, pieces of ${size}`).to.equal(true);
      }
    }
  });

  it('inflateSink_badStreams_theBytesOrErrorOfNodesInflateRaw', async () => {
    const data = Buffer.concat([readFileSync(fileURLToPath(import.meta.url)), randomBytes(300 * 1024)]);
    const deflated = deflateRawSync(data);
    const cases: [string, Buffer[]][] = [
      ['truncated', [deflated.subarray(0, deflated.length >> 1)]],
      ['cut by one byte', [deflated.subarray(0, deflated.length - 1)]],
      ['garbage', [Buffer.from('not a deflate stream at all, only text')]],
      ['garbage after good bytes', [deflated.subarray(0, 1000), Buffer.alloc(5000, 0xff)]],
      ['empty', []],
      ['bytes after the stream', [deflated, Buffer.from('trailing')]],
      ['bytes after the stream, in the same chunk', [Buffer.concat([deflated, Buffer.from('trailing')])]],
    ];
    for (const [what, chunks] of cases) {
      const expected = await streamOutcome(chunks);
      expect(await sinkOutcome(chunks), what).to.deep.equal(expected);
    }
    // The one-shot function agrees on the errors too (the reader's other path).
    expect((await sinkOutcome([deflated.subarray(0, 100)])).error?.message).to.equal(
      (() => {
        try {
          inflateRawSync(deflated.subarray(0, 100));
          return undefined;
        } catch (e) {
          return (e as Error).message;
        }
      })(),
    );
  });

  it('outputChunks_oneBufferReusedFromSinkToSink', async () => {
    // What keeps an engine thread's memory flat: the chunks of one sink and of the next come
    // from the same output buffer, instead of a new Buffer each.
    const underlying = new Set<ArrayBufferLike>();
    for (let i = 0; i < 5; i++) {
      const sink = inflateSink((b) => underlying.add(b.buffer));
      sink.push(deflateRawSync(randomBytes(600 * 1024)));
      await sink.end();
      sink.close();
    }
    expect(underlying.size).to.equal(1);
  });

  it('onOutputThrows_endRejectsWithItAndLaterPushesThrow', async () => {
    const refusal = new Error('too many bytes');
    const sink = inflateSink(() => {
      throw refusal;
    });
    const deflated = deflateRawSync(randomBytes(100 * 1024));
    sink.push(deflated.subarray(0, 50 * 1024));
    let thrown: unknown;
    try {
      await sink.idle();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).to.equal(refusal);
    expect(() => sink.push(deflated.subarray(50 * 1024))).to.throw('too many bytes');
    try {
      await sink.end();
      expect.fail('end resolved after a failure');
    } catch (e) {
      expect(e).to.equal(refusal);
    }
    sink.close();
  });

  it('closedWhileZlibWorks_noCrashAndNothingMoreHandedOut', async () => {
    let after = 0;
    let closed = false;
    const sink = deflateSink(9, () => {
      if (closed) after++;
    });
    sink.push(randomBytes(4 * 1024 * 1024));
    await new Promise((r) => setImmediate(r));
    sink.close();
    closed = true;
    sink.close(); // twice is harmless
    await new Promise((r) => setTimeout(r, 300)); // the call in flight comes back meanwhile
    expect(after).to.equal(0);
    // The pool still gives working sinks.
    expect(await deflatedByteCount(Buffer.alloc(1000, 7), 6)).to.equal(deflateRawSync(Buffer.alloc(1000, 7)).length);
  });
});

describe('ZipReader.forEachChunk', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = new TempDir();
  });
  afterEach(() => tmp.cleanup());

  const content = Buffer.concat([randomBytes(1500 * 1024), Buffer.alloc(2 * 1024 * 1024, 0x20)]);

  it('deflatedAndStoredEntries_theirContentProven', async () => {
    const reader = await ZipReader.open(
      tmp.file(
        'a.zip',
        buildZip([
          { name: 'deflated.bin', data: content, method: 8 },
          { name: 'stored.bin', data: content, method: 0 },
        ]),
      ),
    );
    try {
      for (const entry of reader.entries) {
        const out: Buffer[] = [];
        await reader.forEachChunk(entry, (b) => void out.push(Buffer.from(b)));
        expect(Buffer.concat(out).equals(content), entry.name).to.equal(true);
        expect(reader.isVerified(entry), entry.name).to.equal(true);
      }
    } finally {
      await reader.close();
    }
  });

  it('stoppedEarly_lessReadAndNotProven', async () => {
    const reader = await ZipReader.open(tmp.file('b.zip', buildZip([{ name: 'deflated.bin', data: content, method: 8 }])));
    try {
      const entry = reader.entries[0]!;
      let seen = 0;
      await reader.forEachChunk(entry, (b) => {
        seen += b.length;
        return seen < 100 * 1024;
      });
      expect(seen).to.be.below(content.length);
      expect(reader.isVerified(entry)).to.equal(false);
    } finally {
      await reader.close();
    }
  });

  it('wrongCrcOrBrokenStream_codedErrors', async () => {
    const deflated = deflateRawSync(content);
    const reader = await ZipReader.open(
      tmp.file(
        'c.zip',
        buildZip([
          { name: 'bad-crc.bin', data: content, method: 8, local: { crc: 1234 }, cd: { crc: 1234 } },
          { name: 'cut.bin', data: content, method: 8, body: deflated.subarray(0, deflated.length - 10) },
        ]),
      ),
    );
    try {
      const codes: string[] = [];
      for (const entry of reader.entries) {
        try {
          await reader.forEachChunk(entry, () => undefined);
          codes.push('ok');
        } catch (e) {
          expect(e).to.be.instanceOf(ConverterError);
          codes.push((e as ConverterError).code);
        }
      }
      expect(codes).to.deep.equal(['CORRUPT_ENTRY', 'CORRUPT_ENTRY']);
    } finally {
      await reader.close();
    }
  });
});
