/**
 * The keystore caps (KEYSTORE_LIMITS in @aabify/shared): iteration counts refused before any
 * hashing, the summed derivation work, entries, certificates, chain length and file size —
 * each with its own code and pt-BR message. Hostile stores are made by keytool as an attacker
 * would (skipped with a line where keytool is missing; CI has Java 17) or by hand.
 */
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { KEYSTORE_ERROR_MESSAGES, KEYSTORE_LIMITS } from '@aabify/shared';
import { CONVERTER_ERRORS, ConverterError, generateUploadKeystore, loadSigningKey, openKeystore, type ConverterErrorCode } from '../src/index.js';
import { KdfBudget } from '../src/sign/pbe.js';
import { KEYTOOL_HOW_TO_GET, hasKeytool, jksWithChain, keytoolKeystore, manyBagsPkcs12, manyCertsPkcs12 } from './helpers/keystores.js';
import { missingPrerequisite } from './helpers/oracles.js';
import { TempDir } from './helpers/zipBuilder.js';

const PASS = 'senha-limites';

function codeOf(fn: () => unknown): ConverterErrorCode | string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof ConverterError ? e.code : `not coded: ${String(e)}`;
  }
  return undefined;
}

describe('keystore caps: sizes and counts (hand-made stores)', () => {
  const gen = generateUploadKeystore({ password: PASS });
  const cert = gen.key.chain[0].der;

  it('keystoreErrorMessages_everyCapCode_isAnEngineCodeWithPtBrMessage', () => {
    for (const [code, message] of Object.entries(KEYSTORE_ERROR_MESSAGES)) {
      expect(CONVERTER_ERRORS[code as ConverterErrorCode]).to.equal(message);
      expect(message).to.match(/[ãçéíõ]|keystore/);
    }
    expect(KEYSTORE_ERROR_MESSAGES.KEYSTORE_ITERATIONS).to.contain('100.000');
  });

  it('openKeystore_overMaxBytes_keystoreTooLarge', async () => {
    const big = Buffer.concat([gen.keystore, Buffer.alloc(KEYSTORE_LIMITS.maxBytes + 1 - gen.keystore.length)]);
    expect(codeOf(() => openKeystore(big, { storePassword: PASS }))).to.equal('KEYSTORE_TOO_LARGE');
    const tmp = new TempDir();
    try {
      // A path is sized before it is read.
      const file = tmp.file('enorme.p12');
      writeFileSync(file, Buffer.alloc(8 * 1024 * 1024));
      const err = await loadSigningKey({ keystore: file, storePassword: PASS }).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(ConverterError).with.property('code', 'KEYSTORE_TOO_LARGE');
    } finally {
      tmp.cleanup();
    }
  });

  it('openKeystore_pkcs12WithMoreBagsThanTheCap_tooManyEntries', () => {
    expect(codeOf(() => openKeystore(manyBagsPkcs12(KEYSTORE_LIMITS.maxBags + 1), { storePassword: PASS }))).to.equal('KEYSTORE_TOO_MANY_ENTRIES');
    expect(codeOf(() => openKeystore(manyBagsPkcs12(1_500), { storePassword: PASS }))).to.equal('KEYSTORE_TOO_MANY_ENTRIES');
    // At the cap the bags are read: the store simply has no key.
    expect(codeOf(() => openKeystore(manyBagsPkcs12(KEYSTORE_LIMITS.maxBags - 2), { storePassword: PASS }))).to.equal('KEYSTORE_ALIAS');
  });

  it('openKeystore_pkcs12WithMoreCertificatesThanTheCap_tooManyCertificates', () => {
    expect(codeOf(() => openKeystore(manyCertsPkcs12(cert, KEYSTORE_LIMITS.maxCertificates + 1), { storePassword: PASS }))).to.equal(
      'KEYSTORE_TOO_MANY_CERTIFICATES',
    );
    expect(codeOf(() => openKeystore(manyCertsPkcs12(cert, 3), { storePassword: PASS }))).to.equal('KEYSTORE_ALIAS');
  });

  it('openKeystore_jksChainLongerThanTheCap_chainTooLong', () => {
    expect(codeOf(() => openKeystore(jksWithChain(cert, KEYSTORE_LIMITS.maxChainLength + 1, PASS), { storePassword: PASS }))).to.equal('KEYSTORE_CHAIN_TOO_LONG');
    // Within the cap the entry is read (and its made-up key fails to unwrap).
    expect(codeOf(() => openKeystore(jksWithChain(cert, 2, PASS), { storePassword: PASS }))).to.not.equal('KEYSTORE_CHAIN_TOO_LONG');
  });

  it('kdfBudget_overTheSummedWork_refusedBeforeTheChargeThatExceedsIt', () => {
    const budget = new KdfBudget();
    // A legacy store at the maximum count: MAC, 3DES key (2 rounds) + IV, RC2 certificates key + IV.
    for (const rounds of [1, 2, 1, 1, 1]) budget.charge(KEYSTORE_LIMITS.maxKdfIterations, rounds);
    expect(codeOf(() => budget.charge(KEYSTORE_LIMITS.maxKdfIterations, 5))).to.equal('KEYSTORE_ITERATIONS');
    expect(codeOf(() => new KdfBudget().charge(KEYSTORE_LIMITS.maxKdfIterations + 1))).to.equal('KEYSTORE_ITERATIONS');
    expect(codeOf(() => new KdfBudget().charge(0))).to.equal('BAD_KEYSTORE');
  });
});

describe('keystore caps: iteration counts (keystores made by keytool)', function () {
  this.timeout(120_000);
  let tmp: TempDir;
  before(function () {
    if (!hasKeytool()) missingPrerequisite(this, KEYTOOL_HOW_TO_GET);
    tmp = new TempDir();
  });
  after(() => tmp?.cleanup());

  it('openKeystore_legacyPkcs12WithAMillionIterations_refusedBeforeAnyHashing', () => {
    const store = keytoolKeystore({ file: tmp.file('legacy-1m.p12'), password: PASS, iterations: 1_000_000, legacy: true });
    // A wrong password still answers KEYSTORE_ITERATIONS, not KEYSTORE_PASSWORD: the count is
    // refused before the MAC is derived (today's code spent ~27 s of SHA-1 here first).
    const err = (() => {
      try {
        openKeystore(store, { storePassword: 'nao-e-esta' });
      } catch (e) {
        return e as ConverterError;
      }
      return undefined;
    })();
    expect(err).to.be.instanceOf(ConverterError);
    expect(err!.code, err!.detail).to.equal('KEYSTORE_ITERATIONS');
    expect(err!.message).to.equal(KEYSTORE_ERROR_MESSAGES.KEYSTORE_ITERATIONS);
    expect(err!.detail).to.contain('1000000');
  });

  it('openKeystore_pbes2JustOverTheCap_refused', () => {
    const store = keytoolKeystore({ file: tmp.file('pbes2-100001.p12'), password: PASS, iterations: KEYSTORE_LIMITS.maxKdfIterations + 1 });
    expect(codeOf(() => openKeystore(store, { storePassword: PASS }))).to.equal('KEYSTORE_ITERATIONS');
  });

  it('openKeystore_pbes2AndLegacyAtTheCap_open', () => {
    for (const legacy of [false, true]) {
      const store = keytoolKeystore({ file: tmp.file(`at-cap-${legacy}.p12`), password: PASS, iterations: KEYSTORE_LIMITS.maxKdfIterations, legacy });
      const key = openKeystore(store, { storePassword: PASS });
      expect(key.alias).to.equal('upload');
      expect(key.format).to.equal('PKCS12');
    }
  });
});
