import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { ConverterError, convertApk, generateUploadKeystore, openKeystore, type ConverterErrorCode } from '../src/index.js';
import { derInt, derOid, parseDer, readOid } from '../src/sign/der.js';
import { isSignatureFile, manifestLine, signerName } from '../src/sign/jar.js';
import { rc2CbcDecrypt } from '../src/sign/rc2.js';
import { ZipReader } from '../src/zip/index.js';
import { requireCorpusApk } from './helpers/corpus.js';
import { missingPrerequisite, requireOracles, which } from './helpers/oracles.js';
import { TempDir, buildZip, tinyApkEntries } from './helpers/zipBuilder.js';
import { validateBundle } from './oracle/tools.js';

const PASS = 'segredo123';

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

/** jarsigner -verify -strict, trusting the keystore's own certificate (upload keys are self-signed). */
function jarsignerVerify(aab: string, keystore: string, storetype: string): { ok: boolean; out: string } {
  const r = spawnSync('jarsigner', ['-verify', '-strict', '-keystore', keystore, '-storetype', storetype, '-storepass', PASS, aab], { encoding: 'utf8' });
  return { ok: r.status === 0 && /jar verified\./.test(r.stdout), out: `${r.stdout}${r.stderr}` };
}

interface KeytoolStore {
  name: string;
  file: string;
  storetype: 'PKCS12' | 'JKS';
  alias: string;
  keyPassword?: string;
}

describe('sign: DER, RC2 and manifest syntax', () => {
  it('derOid_roundTrip_readsWhatItWrites', () => {
    for (const oid of ['1.2.840.113549.1.12.10.1.2', '2.16.840.1.101.3.4.2.1', '1.3.6.1.4.1.42.2.17.1.1', '2.5.29.14']) {
      expect(readOid(parseDer(derOid(oid)))).to.equal(oid);
    }
  });

  it('derInt_highBitSet_prependsZero', () => {
    expect(derInt(Buffer.from([0x80])).toString('hex')).to.equal('02020080');
    expect(derInt(0).toString('hex')).to.equal('020100');
  });

  it('parseDer_lengthBeyondBuffer_throwsBadKeystore', () => {
    expect(() => parseDer(Buffer.from([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x00]))).to.throw(ConverterError).with.property('code', 'BAD_KEYSTORE');
  });

  it('rc2CbcDecrypt_opensslVectors_decryptBoth40And128BitKeys', () => {
    // Made with `openssl enc -rc2-40-cbc` / `-rc2-cbc` (legacy provider).
    const iv40 = Buffer.from('0001020304050607', 'hex');
    const ct40 = Buffer.from('aef66d693578a92813bf73bc10ba15745cbd61497e4845a9', 'hex');
    expect(rc2CbcDecrypt(Buffer.from('0102030405', 'hex'), 40, iv40, ct40)?.toString()).to.equal('aabify rc2 test vector!');
    const key128 = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
    const ct128 = Buffer.from('10f3e025a72ba28748ee715710bbf44de48abce901abdb0d', 'hex');
    expect(rc2CbcDecrypt(key128, 128, Buffer.from('0706050403020100', 'hex'), ct128)?.toString()).to.equal('aabify rc2 test vector!');
    expect(rc2CbcDecrypt(key128, 128, iv40, ct128)).to.not.equal('aabify rc2 test vector!');
  });

  it('manifestLine_longUtf8Name_wrapsAt72BytesOnCharacterBoundaries', () => {
    const name = `base/assets/${'ação'.repeat(30)}.txt`;
    const bytes = manifestLine('Name', name);
    const lines = bytes.toString('utf8').split('\r\n').slice(0, -1);
    expect(lines.length).to.be.greaterThan(2);
    for (const l of lines) expect(Buffer.byteLength(l, 'utf8')).to.be.at.most(72);
    expect(lines.slice(1).every((l) => l.startsWith(' '))).to.equal(true);
    expect(lines.map((l, i) => (i === 0 ? l : l.slice(1))).join('')).to.equal(`Name: ${name}`);
  });

  it('signerName_aliasWithSymbols_followsJarsignerRule', () => {
    expect(signerName('upload')).to.equal('UPLOAD');
    expect(signerName('my key.2024')).to.equal('MY_KEY_2');
  });

  it('isSignatureFile_metaInfFiles_excludesOnlyDirectSignatureFiles', () => {
    expect(isSignatureFile('META-INF/MANIFEST.MF')).to.equal(true);
    expect(isSignatureFile('META-INF/UPLOAD.SF')).to.equal(true);
    expect(isSignatureFile('META-INF/sig-x')).to.equal(true);
    expect(isSignatureFile('META-INF/x/UPLOAD.SF')).to.equal(false);
    expect(isSignatureFile('base/root/META-INF/CERT.RSA')).to.equal(false);
  });
});

describe('sign: keystores made by keytool, bundles checked by jarsigner', function () {
  this.timeout(300_000);
  let tmp: TempDir;
  let apk: string;
  const stores: KeytoolStore[] = [];

  before(function () {
    requireOracles(this, 'keytool');
    if (!which('jarsigner')) missingPrerequisite(this, 'jarsigner (Java 17: apt-get install -y openjdk-17-jdk-headless)');
    tmp = new TempDir();
    const entries = tinyApkEntries();
    entries.push({ name: `assets/${'ação-'.repeat(25)}.txt`, data: 'nome longo com acentos' });
    apk = tmp.file('tiny.apk', buildZip(entries));
    const make = (s: KeytoolStore, args: string[], jvm: string[] = []): void => {
      execFileSync(
        'keytool',
        [
          ...jvm,
          '-genkeypair',
          '-keystore',
          s.file,
          '-storetype',
          s.storetype,
          '-storepass',
          PASS,
          ...(s.keyPassword ? ['-keypass', s.keyPassword] : []),
          '-alias',
          s.alias,
          '-dname',
          'CN=Teste aabify, O=aabify, C=BR',
          '-validity',
          '10000',
          ...args,
        ],
        { stdio: 'pipe' },
      );
      stores.push(s);
    };
    make({ name: 'pkcs12-rsa2048', file: tmp.file('rsa2048.p12'), storetype: 'PKCS12', alias: 'upload' }, ['-keyalg', 'RSA', '-keysize', '2048']);
    make({ name: 'pkcs12-rsa4096', file: tmp.file('rsa4096.p12'), storetype: 'PKCS12', alias: 'Upload-4096' }, ['-keyalg', 'RSA', '-keysize', '4096']);
    make({ name: 'pkcs12-ec256', file: tmp.file('ec.p12'), storetype: 'PKCS12', alias: 'ec' }, ['-keyalg', 'EC', '-groupname', 'secp256r1']);
    make({ name: 'pkcs12-legacy-3des-rc2', file: tmp.file('legacy.p12'), storetype: 'PKCS12', alias: 'old' }, ['-keyalg', 'RSA', '-keysize', '2048'], [
      '-J-Dkeystore.pkcs12.legacy',
    ]);
    make({ name: 'jks-rsa2048', file: tmp.file('rsa.jks'), storetype: 'JKS', alias: 'upload', keyPassword: 'outrasenha' }, ['-keyalg', 'RSA', '-keysize', '2048']);
    make({ name: 'jks-ec256', file: tmp.file('ec.jks'), storetype: 'JKS', alias: 'ec', keyPassword: 'outrasenha' }, ['-keyalg', 'EC', '-groupname', 'secp256r1']);
  });
  after(() => tmp?.cleanup());

  it('convertApk_eachKeytoolKeystore_jarsignerVerifiesStrict', async () => {
    for (const s of stores) {
      const out = tmp.file(`${s.name}.aab`);
      const report = await convertApk(apk, out, { sign: { keystore: s.file, storePassword: PASS, alias: s.alias, keyPassword: s.keyPassword } });
      const v = jarsignerVerify(out, s.file, s.storetype);
      expect(v.ok, `${s.name}: ${v.out}`).to.equal(true);
      expect(report.signature?.keystoreFormat, s.name).to.equal(s.storetype);
      expect(report.signature?.signatureAlgorithm, s.name).to.equal(s.name.includes('ec') ? 'SHA256withECDSA' : 'SHA256withRSA');
      const r = await ZipReader.open(out);
      const names = r.entries.map((e) => e.name);
      await r.close();
      expect(names.slice(-3), s.name).to.deep.equal(['META-INF/MANIFEST.MF', ...(report.signature?.signerFiles ?? [])]);
    }
  });

  it('openKeystore_keytoolCertificate_fingerprintMatchesKeytool', () => {
    const s = stores[0];
    const listed = execFileSync('keytool', ['-list', '-v', '-keystore', s.file, '-storepass', PASS, '-alias', s.alias], { encoding: 'utf8' });
    const key = openKeystore(readFileSync(s.file), { storePassword: PASS, alias: s.alias });
    expect(listed).to.include(key.chain[0].sha256);
    expect(key.bits).to.equal(2048);
  });

  it('convertApk_wrongStorePassword_failsKeystorePasswordBeforeWriting', async () => {
    for (const s of stores.filter((x) => x.name === 'pkcs12-rsa2048' || x.name === 'jks-rsa2048')) {
      const out = tmp.file(`bad-${s.name}.aab`);
      const e = await expectCode(convertApk(apk, out, { sign: { keystore: s.file, storePassword: 'errada', alias: s.alias, keyPassword: s.keyPassword } }), 'KEYSTORE_PASSWORD');
      expect(e.message).to.equal('Senha do keystore incorreta.');
      expect(existsSync(out)).to.equal(false);
    }
  });

  it('convertApk_wrongJksKeyPassword_failsKeystorePassword', async () => {
    const s = stores.find((x) => x.name === 'jks-rsa2048')!;
    await expectCode(convertApk(apk, tmp.file('badkey.aab'), { sign: { keystore: s.file, storePassword: PASS, alias: s.alias, keyPassword: 'nao' } }), 'KEYSTORE_PASSWORD');
  });

  it('convertApk_unknownAlias_failsKeystoreAliasListingAliases', async () => {
    const s = stores[0];
    const e = await expectCode(convertApk(apk, tmp.file('alias.aab'), { sign: { keystore: s.file, storePassword: PASS, alias: 'outra' } }), 'KEYSTORE_ALIAS');
    expect(e.message).to.equal('Alias não encontrado no keystore.');
    expect(e.detail).to.include('upload');
  });

  it('convertApk_notAKeystore_failsBadKeystore', async () => {
    await expectCode(convertApk(apk, tmp.file('garbage.aab'), { sign: { keystore: Buffer.from('not a keystore'), storePassword: PASS } }), 'BAD_KEYSTORE');
    await expectCode(convertApk(apk, tmp.file('trunc.aab'), { sign: { keystore: readFileSync(stores[0].file).subarray(0, 300), storePassword: PASS } }), 'BAD_KEYSTORE');
  });

  it('generateUploadKeystore_keytoolAndJarsigner_acceptTheGeneratedKey', async () => {
    const gen = generateUploadKeystore({ alias: 'upload', dname: 'CN=Ana Souza, O=Empresa\\, Ltda, C=BR', password: PASS });
    const file = tmp.file('generated.p12', gen.keystore);
    const listed = execFileSync('keytool', ['-list', '-v', '-keystore', file, '-storetype', 'PKCS12', '-storepass', PASS], { encoding: 'utf8' });
    expect(listed).to.include('Alias name: upload');
    expect(listed).to.include(gen.sha256);
    expect(listed).to.match(/Owner: CN=Ana Souza, O="?Empresa\\?, Ltda"?, C=BR/);
    expect(gen.notAfter.getFullYear()).to.be.greaterThan(new Date().getFullYear() + 25);
    expect(gen.certificatePem).to.match(/^-----BEGIN CERTIFICATE-----\n/);
    const out = tmp.file('generated.aab');
    await convertApk(apk, out, { sign: { keystore: gen.keystore, storePassword: PASS } });
    const v = jarsignerVerify(out, file, 'PKCS12');
    expect(v.ok, v.out).to.equal(true);
  });

  it('generateUploadKeystore_shortPassword_failsInvalidOptions', () => {
    expect(() => generateUploadKeystore({ password: '123' })).to.throw(ConverterError).with.property('code', 'INVALID_OPTIONS');
  });

  it('convertApk_corpusApkSigned_bundletoolValidateAndJarsignerAccept', async function () {
    const oracles = requireOracles(this, 'java', 'bundletoolJar');
    const corpus = requireCorpusApk(this, 'jx-small');
    const s = stores[0];
    const out = tmp.file('jx-small.aab');
    await convertApk(corpus.path, out, { sign: { keystore: s.file, storePassword: PASS, alias: s.alias } });
    const v = jarsignerVerify(out, s.file, s.storetype);
    expect(v.ok, v.out).to.equal(true);
    await validateBundle(oracles, out);
  });
});
