/**
 * PKCS#12 keystores (RFC 7292), as keytool, Android Studio and OpenSSL write them: the MAC is
 * checked first (a mismatch means a wrong store password), then the bags are decrypted.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { KEYSTORE_LIMITS } from '@aabify/shared/keystores';
import { ConverterError } from '../errors.js';
import {
  TAG,
  children,
  derBmp,
  derExplicit,
  derInt,
  derOctets,
  derOid,
  derSeq,
  derSet,
  explicit,
  expectTag,
  parseDer,
  readOctets,
  readOid,
  readSmallInt,
  readString,
  seq,
  type Der,
} from './der.js';
import { DIGESTS, OID } from './oids.js';
import { DecryptFailure, KdfBudget, bmpPassword, checkIterations, pbeDecrypt, pbes2Encrypt, pkcs12Kdf } from './pbe.js';

export interface RawKeyEntry {
  alias?: string;
  localKeyId?: Buffer;
  /** PKCS#8 PrivateKeyInfo, or undefined until decrypted with the key password. */
  pkcs8?: Buffer;
  encrypted?: { alg: Der; data: Buffer };
  /** A JKS KeyProtector blob (EncryptedPrivateKeyInfo DER). */
  jksProtected?: Buffer;
}

export interface RawCertEntry {
  alias?: string;
  localKeyId?: Buffer;
  der: Buffer;
}

export interface RawStore {
  keys: RawKeyEntry[];
  certs: RawCertEntry[];
}

/** Refuses a store past the caps of KEYSTORE_LIMITS, before it costs more parsing or hashing. */
export function checkStoreCaps(store: RawStore, bags: number): void {
  if (bags > KEYSTORE_LIMITS.maxBags) throw new ConverterError('KEYSTORE_TOO_MANY_ENTRIES', `mais de ${KEYSTORE_LIMITS.maxBags} entradas`);
  if (store.certs.length > KEYSTORE_LIMITS.maxCertificates) {
    throw new ConverterError('KEYSTORE_TOO_MANY_CERTIFICATES', `mais de ${KEYSTORE_LIMITS.maxCertificates} certificados`);
  }
}

function wrongPassword(detail: string): never {
  throw new ConverterError('KEYSTORE_PASSWORD', detail);
}

/** Decrypts a bag with `password`; a failure is a wrong password (the MAC, when present, passed). */
function decrypt(alg: Der, password: string, data: Buffer, what: string, budget: KdfBudget): Buffer {
  try {
    return pbeDecrypt(alg, password, data, budget);
  } catch (e) {
    if (e instanceof DecryptFailure) wrongPassword(`${what}: ${e.message}`);
    throw e;
  }
}

/**
 * Reads the store with the store password. Key bags stay encrypted until `decryptKey`. Every
 * derivation is charged to `budget` (shared with `decryptKey`) before it hashes.
 */
export function readPkcs12(bytes: Uint8Array, storePassword: string, budget: KdfBudget = new KdfBudget()): RawStore {
  const pfx = seq(parseDer(bytes), 'PFX', 2);
  if (readSmallInt(pfx[0], 'versão') !== 3) throw new ConverterError('BAD_KEYSTORE', 'PFX: versão diferente de 3');
  const [ctype, ccontent] = seq(pfx[1], 'authSafe', 2);
  if (readOid(ctype) !== OID.data) throw new ConverterError('BAD_KEYSTORE', 'PFX sem conteúdo do tipo data (assinado por chave pública não é suportado)');
  const authSafe = readOctets(explicit(ccontent, 0, 'authSafe'));
  if (pfx[2]) checkMac(pfx[2], storePassword, authSafe, budget);
  const store: RawStore = { keys: [], certs: [] };
  const infos = seq(parseDer(authSafe), 'AuthenticatedSafe');
  const count = { bags: infos.length };
  checkStoreCaps(store, count.bags);
  for (const info of infos) {
    const [t, c] = seq(info, 'ContentInfo', 2);
    const type = readOid(t);
    if (type === OID.data) readSafeContents(readOctets(explicit(c, 0, 'data')), store, count, 0);
    else if (type === OID.encryptedData) {
      const ed = seq(explicit(c, 0, 'encryptedData'), 'EncryptedData', 2);
      const eci = seq(ed[1], 'EncryptedContentInfo', 3);
      const body = eci[2];
      // [0] IMPLICIT OCTET STRING: primitive, or constructed in chunks.
      const data = body.tag === 0x80 ? body.content : body.tag === 0xa0 ? Buffer.concat(children(body).map((x) => readOctets(x))) : undefined;
      if (!data) throw new ConverterError('BAD_KEYSTORE', 'EncryptedContentInfo sem conteúdo');
      readSafeContents(decrypt(eci[1], storePassword, data, 'certificados', budget), store, count, 0);
    } else throw new ConverterError('BAD_KEYSTORE', `conteúdo PKCS#12 não suportado: ${type}`);
  }
  return store;
}

function checkMac(macData: Der, password: string, authSafe: Buffer, budget: KdfBudget): void {
  const m = seq(macData, 'MacData', 2);
  const [digestInfoAlg, digestDer] = seq(m[0], 'DigestInfo', 2);
  const oid = readOid(seq(digestInfoAlg, 'digestAlgorithm', 1)[0]);
  const digest = DIGESTS[oid];
  if (!digest) throw new ConverterError('BAD_KEYSTORE', `algoritmo de MAC não suportado: ${oid}`);
  const salt = readOctets(m[1], 'macSalt');
  const iterations = m[2] ? readSmallInt(m[2], 'iterations') : 1;
  checkIterations(iterations);
  const expected = readOctets(digestDer, 'digest');
  const keyLen = createHmac(digest.name, 'k').digest().length;
  const tryPassword = (pw: Buffer): boolean => {
    const key = pkcs12Kdf(digest.name, digest.block, pw, salt, 3, iterations, keyLen, budget);
    const got = createHmac(digest.name, key).update(authSafe).digest();
    return got.length === expected.length && timingSafeEqual(got, expected);
  };
  // An empty password is hashed either as the two-byte terminator or as nothing, by writer.
  if (tryPassword(bmpPassword(password))) return;
  if (password === '' && tryPassword(Buffer.alloc(0))) return;
  wrongPassword('MAC do PKCS#12 não confere');
}

function attributes(bag: Der[]): { alias?: string; localKeyId?: Buffer } {
  const out: { alias?: string; localKeyId?: Buffer } = {};
  const set = bag[2];
  if (!set) return out;
  for (const attr of children(expectTag(set, TAG.SET, 'bagAttributes'))) {
    const [oidDer, values] = seq(attr, 'Attribute', 2);
    const oid = readOid(oidDer);
    const first = children(expectTag(values, TAG.SET, 'attrValues'))[0];
    if (!first) continue;
    if (oid === OID.friendlyName) out.alias = readString(first);
    else if (oid === OID.localKeyId) out.localKeyId = readOctets(first);
  }
  return out;
}

/** `count.bags` counts every bag of every kind, the ContentInfos around them included. */
function readSafeContents(bytes: Buffer, store: RawStore, count: { bags: number }, depth: number): void {
  if (depth > 4) throw new ConverterError('BAD_KEYSTORE', 'SafeContents aninhados demais');
  const bags = seq(parseDer(bytes), 'SafeContents');
  count.bags += bags.length;
  checkStoreCaps(store, count.bags);
  for (const bagDer of bags) {
    const bag = seq(bagDer, 'SafeBag', 2);
    const type = readOid(bag[0]);
    const value = explicit(bag[1], 0, 'bagValue');
    const attrs = attributes(bag);
    if (type === OID.keyBag) store.keys.push({ ...attrs, pkcs8: value.bytes });
    else if (type === OID.pkcs8ShroudedKeyBag) {
      const [alg, data] = seq(value, 'EncryptedPrivateKeyInfo', 2);
      store.keys.push({ ...attrs, encrypted: { alg, data: readOctets(data) } });
    } else if (type === OID.certBag) {
      const [certType, certValue] = seq(value, 'CertBag', 2);
      if (readOid(certType) !== OID.x509Certificate) continue;
      store.certs.push({ ...attrs, der: Buffer.from(readOctets(explicit(certValue, 0, 'certValue'))) });
      checkStoreCaps(store, count.bags);
    } else if (type === OID.safeContentsBag) {
      readSafeContents(value.bytes, store, count, depth + 1);
    }
    // CRL and secret bags carry nothing a signer needs.
  }
}

/** The key's PKCS#8 bytes, decrypting with `keyPassword` (a failure: KEYSTORE_PASSWORD). */
export function decryptKey(entry: RawKeyEntry, keyPassword: string, budget: KdfBudget): Buffer {
  if (entry.pkcs8) return entry.pkcs8;
  const enc = entry.encrypted!;
  return decrypt(enc.alg, keyPassword, enc.data, 'chave privada', budget);
}

const bagAttributes = (alias: string, localKeyId: Buffer): Buffer =>
  derSet(derSeq(derOid(OID.friendlyName), derSet(derBmp(alias))), derSeq(derOid(OID.localKeyId), derSet(derOctets(localKeyId))));

const contentInfoData = (content: Buffer): Buffer => derSeq(derOid(OID.data), derExplicit(0, derOctets(content)));

/**
 * Writes a PKCS#12 store holding one private key and its certificate chain, protected the way
 * keytool (JDK ≥ 16) does: PBES2/AES-256 for key and certificates, HmacPBESHA256 MAC.
 */
export function writePkcs12(o: { alias: string; pkcs8: Buffer; chain: Buffer[]; password: string; iterations?: number }): Buffer {
  const iterations = o.iterations ?? 10_000;
  const localKeyId = Buffer.from(`Time ${Date.now()}`, 'latin1');
  const [keyAlg, keyCt] = pbes2Encrypt(o.password, o.pkcs8, iterations);
  const keyBag = derSeq(
    derOid(OID.pkcs8ShroudedKeyBag),
    derExplicit(0, derSeq(keyAlg, derOctets(keyCt))),
    bagAttributes(o.alias, localKeyId),
  );
  const certBags = o.chain.map((der, i) =>
    derSeq(
      derOid(OID.certBag),
      derExplicit(0, derSeq(derOid(OID.x509Certificate), derExplicit(0, derOctets(der)))),
      ...(i === 0 ? [bagAttributes(o.alias, localKeyId)] : []),
    ),
  );
  const [certAlg, certCt] = pbes2Encrypt(o.password, derSeq(...certBags), iterations);
  const encryptedCerts = derSeq(
    derOid(OID.encryptedData),
    derExplicit(0, derSeq(derInt(0), derSeq(derOid(OID.data), certAlg, Buffer.concat([Buffer.from([0x80]), lengthOf(certCt), certCt])))),
  );
  const authSafe = derSeq(encryptedCerts, contentInfoData(derSeq(keyBag)));
  const salt = randomBytes(20);
  const macKey = pkcs12Kdf('sha256', 64, bmpPassword(o.password), salt, 3, iterations, 32);
  const mac = createHmac('sha256', macKey).update(authSafe).digest();
  const macData = derSeq(derSeq(derSeq(derOid(OID.sha256), Buffer.from([0x05, 0])), derOctets(mac)), derOctets(salt), derInt(iterations));
  return derSeq(derInt(3), contentInfoData(authSafe), macData);
}

/** DER length bytes alone (for an implicit primitive [0]). */
function lengthOf(b: Buffer): Buffer {
  const full = derOctets(b);
  return full.subarray(1, full.length - b.length);
}
