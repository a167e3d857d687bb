/**
 * Makes a new upload key as `keytool -genkeypair -keyalg RSA -keysize 2048 -validity 10000
 * -storetype PKCS12` would: RSA 2048, a self-signed SHA256withRSA certificate valid 25+ years,
 * stored in a PKCS#12 file that keytool, jarsigner and Android Studio open.
 */
import { generateKeyPairSync } from 'node:crypto';
import { ConverterError } from '../errors.js';
import { openKeystore, type SigningKey } from './keystore.js';
import { writePkcs12 } from './pkcs12.js';
import { readCertificate, selfSignedCertificate, toPem } from './x509.js';

export interface KeygenOptions {
  alias?: string;
  /** e.g. `CN=Ana Souza, O=Empresa, C=BR`. */
  dname?: string;
  password: string;
  /** Days of validity; Play asks for an upload certificate valid past 2033 (default 10000 ≈ 27 years). */
  validityDays?: number;
  keySize?: 2048 | 3072 | 4096;
}

export interface GeneratedKeystore {
  /** The PKCS#12 file. */
  keystore: Buffer;
  alias: string;
  certificatePem: string;
  sha1: string;
  sha256: string;
  subject: string;
  notAfter: Date;
  key: SigningKey;
}

export const MIN_KEYSTORE_PASSWORD = 6;

export function generateUploadKeystore(o: KeygenOptions): GeneratedKeystore {
  const alias = o.alias ?? 'upload';
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(alias)) throw new ConverterError('INVALID_OPTIONS', 'alias deve ter de 1 a 64 letras, dígitos, ".", "_" ou "-"');
  // keytool refuses store passwords shorter than 6 characters.
  if (typeof o.password !== 'string' || o.password.length < MIN_KEYSTORE_PASSWORD) {
    throw new ConverterError('INVALID_OPTIONS', `a senha do keystore deve ter ao menos ${MIN_KEYSTORE_PASSWORD} caracteres`);
  }
  const validityDays = o.validityDays ?? 10_000;
  if (!Number.isInteger(validityDays) || validityDays < 9_125 || validityDays > 36_500) {
    throw new ConverterError('INVALID_OPTIONS', 'validade deve ser de 9125 a 36500 dias (25 a 100 anos)');
  }
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: o.keySize ?? 2048 });
  const cert = selfSignedCertificate({ dname: o.dname ?? 'CN=Upload Key', privateKey, publicKey, validityDays });
  const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'der' });
  const keystore = writePkcs12({ alias: alias.toLowerCase(), pkcs8, chain: [cert], password: o.password });
  // Read back through the same path every signing uses: what we hand out must open.
  const key = openKeystore(keystore, { storePassword: o.password, alias });
  const leaf = key.chain[0];
  return {
    keystore,
    alias: key.alias,
    certificatePem: toPem(cert),
    sha1: leaf.sha1,
    sha256: leaf.sha256,
    subject: leaf.subject,
    notAfter: leaf.notAfter,
    key,
  };
}

/** The subject of aabify's test keys: what marks an APK as signed for testing, never for Google Play. */
export const TEST_KEY_SUBJECT = 'CN=aabify test key - NOT FOR GOOGLE PLAY, O=aabify';
/** The test keystore's password: a test key guards nothing, so its password is no secret. */
export const TEST_KEY_PASSWORD = 'aabify-test-key';
export const TEST_KEY_ALIAS = 'aabify-test';

/** A new test key (RSA 2048) in a PKCS#12 keystore opened with TEST_KEY_PASSWORD. */
export function generateTestKeystore(): GeneratedKeystore {
  return generateUploadKeystore({ alias: TEST_KEY_ALIAS, dname: TEST_KEY_SUBJECT, password: TEST_KEY_PASSWORD });
}

let processTestKey: SigningKey | undefined;

/**
 * The test key of this process, made on first use (no keystore file: nothing to protect): the
 * APKs one process builds without a key share it, so a test build installs over the previous one.
 */
export function processTestSigningKey(): SigningKey {
  if (!processTestKey) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const cert = selfSignedCertificate({ dname: TEST_KEY_SUBJECT, privateKey, publicKey, validityDays: 10_000 });
    processTestKey = { alias: TEST_KEY_ALIAS, format: 'PKCS12', algorithm: 'RSA', bits: 2048, privateKey, chain: [readCertificate(cert)] };
  }
  return processTestKey;
}

/** Whether a key is one of aabify's test keys (by its certificate's subject). */
export function isTestKey(key: SigningKey): boolean {
  return key.chain[0]?.subject === TEST_KEY_SUBJECT;
}
