/**
 * The order of an APK's entries (bundletool's ZipPath order): segment by segment, each segment
 * compared by UTF-16 code units, a path before the longer paths it begins.
 */
import { expect } from 'chai';
import { comparePaths } from '../src/apks/compression.js';

/** The definition itself: the paths split into segments, compared pairwise. */
function bySegments(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    if (sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1;
  }
  return sa.length - sb.length;
}

describe('apks: entry order', () => {
  it('comparePaths_knownPairs_segmentBeforeLongerSegment', () => {
    expect(comparePaths('a/b', 'a.b/c')).to.be.below(0); // "a" < "a.b", though '.' < '/'
    expect(comparePaths('res/xml/a.xml', 'res/xml-v21/a.xml')).to.be.below(0);
    expect(comparePaths('lib/x86/a.so', 'lib/x86_64/a.so')).to.be.below(0);
    expect(comparePaths('a', 'a/b')).to.be.below(0);
    expect(comparePaths('assets/z', 'assets/z')).to.equal(0);
    expect(comparePaths('classes2.dex', 'classes.dex')).to.be.above(0);
  });

  it('comparePaths_randomPaths_signAsTheSegmentComparison', () => {
    const alphabet = ['a', 'b', '/', '.', '-', '_', '0', 'é', '\u{1F600}', 'A'];
    let seed = 7;
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const path = (): string => Array.from({ length: 1 + next(8) }, () => alphabet[next(alphabet.length)]).join('');
    for (let i = 0; i < 20_000; i++) {
      const a = path();
      const b = next(4) === 0 ? a + path() : path();
      expect(Math.sign(comparePaths(a, b)), `${a} | ${b}`).to.equal(Math.sign(bySegments(a, b)));
    }
  });
});
