/**
 * Path globs (bundletool's PathMatcher syntax) from users and from bundles: the same meaning as
 * bundletool's translation to a Java regex, and time linear in the name whatever the pattern —
 * the worst cases below (many `**`, long names, groups) ran for minutes with a backtracking
 * RegExp and must finish well inside mocha's default timeout here.
 */
import { expect } from 'chai';
import { convertApk } from '../src/index.js';
import { assetPackOf } from '../src/bundle/assetPacks.js';
import { MAX_GLOB_LENGTH, MatchBudget, PathGlob, compilePathGlob, globProblem } from '../src/glob/pathGlob.js';
import { globSyntaxError } from '../src/validate/glob.js';
import { ZipReader } from '../src/zip/index.js';
import { TempDir, buildZip, tinyApkEntries } from './helpers/zipBuilder.js';
import { requireOracles } from './helpers/oracles.js';
import { bundletoolGlobAnswers, type GlobCase } from './oracle/bundletoolGlob.js';

const matches = (glob: string, path: string): boolean => new PathGlob(glob).matches(path);

function expectMatches(glob: string, yes: readonly string[], no: readonly string[]): void {
  const g = new PathGlob(glob);
  for (const p of yes) expect(g.matches(p), `${glob} should match ${JSON.stringify(p)}`).to.equal(true);
  for (const p of no) expect(g.matches(p), `${glob} should not match ${JSON.stringify(p)}`).to.equal(false);
}

async function codeOf(p: Promise<unknown>): Promise<{ code?: string; detail?: string }> {
  try {
    await p;
  } catch (e) {
    return e as { code?: string; detail?: string };
  }
  expect.fail('expected a coded error');
}

describe('path globs: bundletool semantics', () => {
  it('star_withinOneSegment', () => {
    expectMatches('*.png', ['file.png', '.png'], ['dir/file.png', 'file.jpg']);
    expectMatches('*dir/*.png', ['dir/file.png', 'otherdir/file.png'], ['file.png', 'other/dir/file.png', '.png']);
  });
  it('doubleStar_crossesSegments', () => {
    expectMatches('**.png', ['file.png', 'dir/file.png', '.png'], ['filepng', 'file']);
    expectMatches('dir**/*.png', ['dir/file.png', 'dir2/file.png', 'dir/dir2/file.png'], ['dir.png']);
  });
  it('questionMark_oneCharacterSlashIncluded', () => {
    expectMatches('???', ['abc', '...', '???', 'a/b'], ['abcd', 'ab']);
    // Java's "." : one code point, never a line terminator.
    expectMatches('a?b', ['a😀b', 'aéb'], ['a\nb', 'a\u2028b', 'ab']);
  });
  it('characterClass_rangesAndSets', () => {
    expectMatches('[ab]', ['a', 'b'], ['c', '[', 'ab', '[ab]']);
    expectMatches('[0-9]', ['0', '5', '9'], ['00', '0-9', '[0-9]']);
    expectMatches('[A-Za-z]', ['A', 'Z', 'a', 'z'], ['0', 'AA']);
    expectMatches('[a-]', ['a', '-'], ['b']);
  });
  it('characterClass_leadingCaretIsLiteralBangNegatesAndExcludesItself', () => {
    expectMatches('[^a]', ['a', '^'], ['b']);
    // bundletool writes "[!a]" as the regex "[^!a]": neither "!" nor "a", and "/" is fine.
    expectMatches('[!a]', ['b', '/', 'z'], ['a', '!']);
  });
  it('groups_alternativesEmptyOnesAndClassesInside', () => {
    expectMatches('{temp*,tmp*}', ['temp', 'temporary', 'tmp', 'tmpfile'], ['{tmp}', 'tmp/file']);
    expectMatches('file{,.png}', ['file', 'file.png'], ['fileapng', 'file,']);
    expectMatches('file.{[0-9],[a-z][0-9]}', ['file.0', 'file.b2'], ['file.a', 'file.11']);
    expectMatches('{a,b}{c,d}', ['ac', 'ad', 'bc', 'bd'], ['aa']);
  });
  it('escapesAndRegexCharacters_literal', () => {
    expectMatches('<(^-=$!|)+.>', ['<(^-=$!|)+.>'], ['<(^-=$!|)+x>']);
    expectMatches('\\*.png', ['*.png'], ['file.png']);
    expectMatches('\\?.png', ['?.png'], ['a.png']);
    expectMatches('a\\,b,c', ['a,b,c'], ['ab']);
    expectMatches('{a\\,b,c}', ['a,b', 'c'], ['a', 'b']);
  });
  it('syntaxErrors_asBundletoolRefusesThem', () => {
    const reasons = (g: string): string | undefined => globProblem(g)?.reason;
    expect(reasons('[ab/]')).to.equal('has a "/" inside a character class');
    expect(reasons('abc[]')).to.equal('has an empty character class');
    expect(reasons('a[bc')).to.equal('has an unclosed character class');
    expect(reasons('ab]c')).to.equal('has an unmatched "]"');
    expect(reasons('{tmp{1,2},temp}')).to.equal('has nested groups');
    expect(reasons('a{tmp,temp')).to.equal('has an unclosed group');
    expect(reasons('ab}c')).to.equal('has an unmatched "}"');
    expect(reasons('abc\\')).to.equal('ends with an escape character');
    expect(reasons('[z-a]')).to.equal('has an invalid range "z-a" in a character class');
    expect(globProblem('a\\db')).to.include({ unsupported: true });
    expect(globProblem('[a&&b]')).to.include({ unsupported: true });
  });
  it('bundleValidator_regexOnlyConstructsNotReportedForbiddenOnesAre', () => {
    expect(globSyntaxError('assets/\\d.png'), 'bundletool compiles it').to.equal(undefined);
    expect(globSyntaxError('ab]c')).to.equal('has an unmatched "]"');
    expect(globSyntaxError('a\\\\b')).to.equal('contains a double backslash');
  });
  it('compilePathGlob_tooLongOrMalformed_invalidOptionsInPortuguese', () => {
    const long = 'a'.repeat(MAX_GLOB_LENGTH + 1);
    expect(() => compilePathGlob(long)).to.throw().with.property('detail', `padrão longo demais: ${MAX_GLOB_LENGTH + 1} caracteres (máximo ${MAX_GLOB_LENGTH})`);
    expect(() => compilePathGlob('{a,{b,c}}')).to.throw().with.property('detail', 'padrão inválido "{a,{b,c}}": tem grupos {...} aninhados (caractere 4)');
    expect(() => compilePathGlob('')).to.throw().with.property('code', 'INVALID_OPTIONS');
  });
});

describe('path globs: worst cases finish (linear in the name)', () => {
  const aaa = `assets/${'a'.repeat(3000)}`;

  it('manyDoubleStars_longNameOfAs_noMatchThenMatch', () => {
    expect(matches('assets/**a**a**a**a**a**a**b', aaa)).to.equal(false);
    expect(matches('assets/**a**a**a**a**a**a**b', `${aaa}b`)).to.equal(true);
    expect(matches('assets/**a**a**a**a**a**a**a', aaa)).to.equal(true);
  });
  it('longestPatternOfStars_sixtyThousandCharacterName', () => {
    const glob = '*a'.repeat(MAX_GLOB_LENGTH / 2);
    expect(matches(glob, 'a'.repeat(60_000))).to.equal(true);
    expect(matches(glob, `${'a'.repeat(60_000)}/`)).to.equal(false);
    expect(matches(`${glob}b`, 'a'.repeat(60_000))).to.equal(false);
  });
  it('groupsOfStarsRepeated_longName', () => {
    const glob = '{*a,**a,a*}'.repeat(40) + 'b';
    expect(matches(glob, 'a'.repeat(20_000))).to.equal(false);
    expect(matches(glob, `${'a'.repeat(20_000)}b`)).to.equal(true);
  });
  it('patternWhoseStatesMultiply_randomName', () => {
    // "an a, then 20 more characters": a deterministic automaton would need 2^20 states.
    const glob = `**a${'?'.repeat(20)}`;
    let x = 7;
    let name = '';
    for (let i = 0; i < 30_000; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      name += x & 0x10000 ? 'a' : 'b';
    }
    expect(matches(glob, name)).to.equal(name[name.length - 21] === 'a');
  });
  it('nestedBraces_refusedAtOnce', () => {
    expect(() => compilePathGlob(`${'{a,'.repeat(100)}b${'}'.repeat(100)}`)).to.throw().with.property('code', 'INVALID_OPTIONS');
  });
  it('matchBudget_spent_codedErrorInPortuguese', () => {
    const packOf = assetPackOf([{ name: 'p', glob: '**a**a**a**a**a**a**b' }], new MatchBudget(10_000));
    let error: { code?: string; detail?: string } | undefined;
    try {
      for (let i = 0; i < 100; i++) packOf(`${aaa}${i}`);
    } catch (e) {
      error = e as typeof error;
    }
    expect(error).to.include({ code: 'INVALID_OPTIONS' });
    expect(error?.detail).to.match(/^os padrões \(globs\) dos pacotes de assets exigem comparações demais/);
  });
});

describe('path globs: asset packs of a conversion', function () {
  let tmp: TempDir;
  before(() => {
    tmp = new TempDir();
  });
  after(() => tmp.cleanup());

  const apk = (): Buffer => buildZip([...tinyApkEntries(), { name: `assets/${'a'.repeat(3000)}`, data: 'x' }, { name: `assets/${'a'.repeat(2999)}b`, data: 'y' }]);

  it('convertApk_backtrackingPatternAgainstLongAssetName_onlyTheMatchingAssetMoves', async () => {
    const out = tmp.file('long.aab');
    await convertApk(tmp.file('long.apk', apk()), out, { assetPacks: [{ name: 'pack', glob: '**a**a**a**a**a**a**b' }] });
    const r = await ZipReader.open(out);
    expect(r.get(`pack/assets/${'a'.repeat(2999)}b`), 'the name ending in b').to.not.equal(undefined);
    expect(r.get(`base/assets/${'a'.repeat(3000)}`), 'all a: stays in the base').to.not.equal(undefined);
    await r.close();
  });

  it('convertApk_overLongOrNestedGlob_invalidOptionsBeforeAnyWork', async () => {
    const long = await codeOf(convertApk(tmp.file('l1.apk', apk()), tmp.file('l1.aab'), { assetPacks: [{ name: 'p', glob: '*'.repeat(MAX_GLOB_LENGTH + 1) }] }));
    expect(long).to.include({ code: 'INVALID_OPTIONS' });
    expect(long.detail).to.contain(`máximo ${MAX_GLOB_LENGTH}`);
    const nested = await codeOf(convertApk(tmp.file('l2.apk', apk()), tmp.file('l2.aab'), { assetPacks: [{ name: 'p', glob: '{a,{b,c}}' }] }));
    expect(nested).to.include({ code: 'INVALID_OPTIONS' });
    expect(nested.detail).to.contain('aninhados');
  });
});

describe('path globs: the same answers as bundletool (oracle)', function () {
  this.timeout(120_000);
  let tmp: TempDir;
  before(() => {
    tmp = new TempDir();
  });
  after(() => tmp.cleanup());

  // Globs and paths drawn from the characters that mean something to either side (regex or glob).
  const PIECES = ['a', 'b', '/', '.', '*', '**', '?', '[a-b]', '[!a]', '[^a]', '{a,b}', '{,a}', '\\*', '\\,', ',', '-', '!', '^', '[ab]', '\\', '[', ']', '{', '}', '[a-]', '[-a]', '[!-a]', '\\[', 'é', '😀', '$', '(', '|'];
  const CHARS = ['a', 'b', '/', '.', ',', '*', '!', '^', '-', '[', '\\', 'é', '😀', '\n', '$'];

  it('randomGlobsAndPaths_compileAndMatchAsBundletoolPathMatcher', function () {
    const o = requireOracles(this, 'java', 'bundletoolJar');
    let seed = 12345;
    const pick = <T>(from: readonly T[]): T => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return from[(seed >>> 8) % from.length];
    };
    const cases: GlobCase[] = [];
    for (let i = 0; i < 2000; i++) {
      const glob = Array.from({ length: 1 + ((i * 7) % 6) }, () => pick(PIECES)).join('');
      const paths = Array.from({ length: 12 }, (_, j) => Array.from({ length: (i + j) % 7 }, () => pick(CHARS)).join(''));
      cases.push({ glob, paths });
    }
    const answers = bundletoolGlobAnswers(o, tmp.path, cases);
    const differences: string[] = [];
    let refused = 0;
    cases.forEach((c, i) => {
      const problem = globProblem(c.glob);
      if (problem?.unsupported) return; // a regex construct bundletool hands to Java; refused here
      if (answers[i] === 'E' || problem) {
        refused++;
        if ((answers[i] === 'E') !== (problem !== undefined)) differences.push(`${JSON.stringify(c.glob)}: bundletool ${answers[i]}, here ${problem?.reason ?? 'compiles'}`);
        return;
      }
      const g = new PathGlob(c.glob);
      const ours = c.paths.map((p) => (g.matches(p) ? '1' : '0')).join('');
      if (ours !== answers[i]) differences.push(`${JSON.stringify(c.glob)} on ${JSON.stringify(c.paths)}: bundletool ${answers[i]}, here ${ours}`);
    });
    expect(differences).to.deep.equal([]);
    expect(refused, 'both kinds of glob were tried').to.be.within(200, 1800);
  });
});
