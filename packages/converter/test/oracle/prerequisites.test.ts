import { expect } from 'chai';
import { missingPrerequisite, requireOracles } from '../helpers/oracles.js';

/** A mocha context whose skip() is observable. */
function fakeContext(): { ctx: Mocha.Context; skipped: () => boolean } {
  let skipped = false;
  const ctx = {
    skip(): never {
      skipped = true;
      throw new Error('skipped');
    },
  } as unknown as Mocha.Context;
  return { ctx, skipped: () => skipped };
}

describe('oracle: skip outside CI, fail in CI', () => {
  const saved = { ci: process.env.CI, dir: process.env.PATH };
  afterEach(() => {
    if (saved.ci === undefined) delete process.env.CI;
    else process.env.CI = saved.ci;
    process.env.PATH = saved.dir;
  });

  it('missingPrerequisite_notCi_skips', () => {
    delete process.env.CI;
    const f = fakeContext();
    expect(() => missingPrerequisite(f.ctx, 'aapt (Debian: apt-get install -y aapt)')).to.throw('skipped');
    expect(f.skipped()).to.equal(true);
  });

  it('missingPrerequisite_ci_throwsSayingWhat', () => {
    process.env.CI = 'true';
    const f = fakeContext();
    expect(() => missingPrerequisite(f.ctx, 'APK corpus')).to.throw('CI=true and a test prerequisite is missing: APK corpus');
    expect(f.skipped()).to.equal(false);
  });

  it('requireOracles_toolNotOnPath_namesItAndHowToGetIt', () => {
    process.env.CI = 'true';
    process.env.PATH = '/nonexistent';
    expect(() => requireOracles(fakeContext().ctx, 'protoc')).to.throw('protoc (Debian: apt-get install -y protobuf-compiler)');
  });
});
