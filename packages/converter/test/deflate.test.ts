import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { deflateRawSmall, deflatedLengthSmall } from '../src/zip/index.js';
import { deflatesDirectly } from '../src/zip/deflate.js';

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
    expect(deflatesDirectly(), 'the zlib handle is driven directly on this Node').to.equal(true);
    for (const data of inputs()) {
      const expected = deflateRawSync(data, { level: 6 });
      expect(deflateRawSmall(data).toString('hex'), `${data.length} bytes`).to.equal(expected.toString('hex'));
      expect(deflatedLengthSmall(data)).to.equal(expected.length);
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
