import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { deflateRawSmall, deflatedLengthSmall, inflateRawSmall } from '../src/zip/index.js';
import { drivesZlibDirectly } from '../src/zip/smallZlib.js';

/** Inputs of the kinds the engine deflates small: text, images, nothing, repeats, noise. */
function inputs(): Buffer[] {
  const text = readFileSync(fileURLToPath(import.meta.url));
  return [
    Buffer.alloc(0),
    Buffer.from('a'),
    text,
    Buffer.concat([text, text, text]),
    Buffer.alloc(16 * 1024, 0x41),
    randomBytes(3000),
    randomBytes(16 * 1024),
    // Larger than the shared output buffer starts (64 KiB), incompressible: it must grow it.
    randomBytes(200 * 1024),
    Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7 + (i >> 3)) & 0xff)),
  ];
}

describe('deflateRawSmall', () => {
  it('eachKindOfInput_theBytesOfDeflateRawSyncLevel6', () => {
    expect(drivesZlibDirectly(), 'the zlib handle is driven directly on this Node').to.equal(true);
    for (const data of inputs()) {
      const expected = deflateRawSync(data, { level: 6 });
      expect(deflateRawSmall(data).toString('hex'), `${data.length} bytes`).to.equal(expected.toString('hex'));
      expect(deflatedLengthSmall(data)).to.equal(expected.length);
    }
  });

  it('level9_theBytesOfDeflateRawSyncLevel9', () => {
    // What build-apks deflates resources with, as bundletool does.
    for (const data of inputs()) {
      expect(deflateRawSmall(data, 9).toString('hex'), `${data.length} bytes`).to.equal(deflateRawSync(data, { level: 9 }).toString('hex'));
    }
  });

  it('resultsKeptAcrossCalls_eachItsOwnBytes', () => {
    // The output buffer is shared between calls: what a call returned must not change after.
    const all = inputs();
    const results = all.map((d) => deflateRawSmall(d));
    all.forEach((d, i) => expect(results[i]!.equals(deflateRawSync(d, { level: 6 }))).to.equal(true));
  });

  it('sameInputAfterOthers_sameBytesAsAtFirst', () => {
    // A fresh zlib context per call: the history of other inputs changes nothing (a reused one did).
    const data = Buffer.from(Array.from({ length: 1172 }, (_, i) => (i % 13 === 0 ? i & 0xff : 0x20 + (i % 50))));
    const first = deflateRawSmall(data);
    for (const other of inputs()) deflateRawSmall(other);
    expect(deflateRawSmall(data).equals(first)).to.equal(true);
  });
});

/** What `inflateRawSync` (as the reader called it before) gives or throws, to compare outcomes. */
function outcome(run: () => Buffer): { bytes?: string; error?: { name: string; code?: string; message: string } } {
  try {
    return { bytes: run().toString('hex') };
  } catch (e) {
    const err = e as Error & { code?: string };
    return { error: { name: err.name, code: err.code, message: err.message } };
  }
}

describe('inflateRawSmall', () => {
  it('eachKindOfInput_theBytesDeflatedFirst', () => {
    expect(drivesZlibDirectly(), 'the zlib handle is driven directly on this Node').to.equal(true);
    for (const data of inputs()) {
      const deflated = deflateRawSync(data, { level: 9 });
      expect(inflateRawSmall(deflated, data.length).equals(data), `${data.length} bytes`).to.equal(true);
    }
  });

  it('resultsKeptAcrossCalls_eachItsOwnBytes', () => {
    const all = inputs();
    const results = all.map((d) => inflateRawSmall(deflateRawSync(d), d.length));
    all.forEach((d, i) => expect(results[i]!.equals(d)).to.equal(true));
  });

  it('badStreams_theSameBytesOrErrorAsInflateRawSync', () => {
    const data = readFileSync(fileURLToPath(import.meta.url));
    const deflated = deflateRawSync(data);
    const cases: [string, Buffer, number][] = [
      ['truncated', deflated.subarray(0, deflated.length >> 1), data.length],
      ['cut by one byte', deflated.subarray(0, deflated.length - 1), data.length],
      ['garbage', Buffer.from('not a deflate stream at all, only text'), 40],
      ['empty input', Buffer.alloc(0), 10],
      ['longer than declared', deflated, data.length - 100],
      ['one byte longer than declared', deflated, data.length - 1],
      ['shorter than declared', deflated, data.length + 100],
      ['bytes after the stream', Buffer.concat([deflated, Buffer.from('trailing')]), data.length],
      ['declared empty', deflateRawSync(Buffer.alloc(0)), 0],
    ];
    for (const [what, input, size] of cases) {
      const expected = outcome(() => inflateRawSync(input, { maxOutputLength: size + 1 }));
      expect(outcome(() => inflateRawSmall(input, size)), what).to.deep.equal(expected);
    }
  });
});
