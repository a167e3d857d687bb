/**
 * Java KeyStore (JKS), the format of upload keys made before JDK 9. The integrity check is a
 * SHA-1 over UTF-16BE(password) ‖ "Mighty Aphrodite" ‖ the store; private keys are protected by
 * Sun's KeyProtector (a SHA-1 keystream XOR with a SHA-1 check of the plaintext).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { KEYSTORE_LIMITS } from '@aabify/shared/keystores';
import { ConverterError } from '../errors.js';
import { parseDer, readOctets, readOid, seq } from './der.js';
import { OID } from './oids.js';
import { checkStoreCaps, type RawCertEntry, type RawKeyEntry, type RawStore } from './pkcs12.js';

export const JKS_MAGIC = 0xfeedfeed;
export const JCEKS_MAGIC = 0xcececece;

function utf16be(s: string): Buffer {
  const b = Buffer.alloc(s.length * 2);
  for (let i = 0; i < s.length; i++) b.writeUInt16BE(s.charCodeAt(i), i * 2);
  return b;
}

class Cursor {
  pos = 0;
  constructor(private readonly buf: Buffer) {}
  need(n: number): void {
    if (n < 0 || this.pos + n > this.buf.length) throw new ConverterError('BAD_KEYSTORE', `JKS truncado em ${this.pos}`);
  }
  u16(): number {
    this.need(2);
    const v = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  bytes(n: number): Buffer {
    this.need(n);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }
  /** Java's modified UTF-8 (same as UTF-8 for every alias keytool accepts). */
  utf(): string {
    return this.bytes(this.u16()).toString('utf8');
  }
}

/**
 * Reads a JKS store; the integrity check with the store password comes first. JKS has no
 * iteration count (one SHA-1 over a file of at most KEYSTORE_LIMITS.maxBytes): its entries,
 * chains and certificates are capped as PKCS#12's are.
 */
export function readJks(bytes: Uint8Array, storePassword: string): RawStore {
  const buf = Buffer.from(bytes);
  if (buf.length < 32) throw new ConverterError('BAD_KEYSTORE', 'JKS curto demais');
  const body = buf.subarray(0, buf.length - 20);
  const digest = createHash('sha1').update(utf16be(storePassword)).update('Mighty Aphrodite', 'latin1').update(body).digest();
  if (!timingSafeEqual(digest, buf.subarray(buf.length - 20))) {
    throw new ConverterError('KEYSTORE_PASSWORD', 'verificação de integridade do JKS falhou');
  }
  const c = new Cursor(body);
  const magic = c.u32();
  if (magic === JCEKS_MAGIC) throw new ConverterError('BAD_KEYSTORE', 'JCEKS não é suportado; converta para PKCS12 com keytool -importkeystore');
  if (magic !== JKS_MAGIC) throw new ConverterError('BAD_KEYSTORE', 'assinatura JKS ausente');
  const version = c.u32();
  if (version !== 1 && version !== 2) throw new ConverterError('BAD_KEYSTORE', `versão JKS ${version}`);
  const count = c.u32();
  checkStoreCaps({ keys: [], certs: [] }, count);
  const store: RawStore = { keys: [], certs: [] };
  const readCert = (): Buffer => {
    if (version === 2) {
      const type = c.utf();
      if (type !== 'X.509') throw new ConverterError('BAD_KEYSTORE', `certificado do tipo ${type}`);
    }
    return Buffer.from(c.bytes(c.u32()));
  };
  for (let i = 0; i < count; i++) {
    const tag = c.u32();
    const alias = c.utf();
    c.bytes(8); // timestamp
    if (tag === 1) {
      const protectedKey = Buffer.from(c.bytes(c.u32()));
      const n = c.u32();
      if (n > KEYSTORE_LIMITS.maxChainLength) throw new ConverterError('KEYSTORE_CHAIN_TOO_LONG', `${n} certificados na entrada "${alias}"`);
      const chain: RawCertEntry[] = [];
      for (let k = 0; k < n; k++) chain.push({ der: readCert(), ...(k === 0 ? { alias } : {}) });
      const id = Buffer.from(`jks:${i}`);
      store.keys.push({ alias, localKeyId: id, jksProtected: protectedKey });
      if (chain[0]) chain[0].localKeyId = id;
      store.certs.push(...chain);
    } else if (tag === 2) {
      store.certs.push({ der: readCert() });
    } else throw new ConverterError('BAD_KEYSTORE', `tipo de entrada JKS ${tag}`);
    checkStoreCaps(store, count);
  }
  if (c.pos !== body.length) throw new ConverterError('BAD_KEYSTORE', 'bytes sobrando no JKS');
  return store;
}

/** Unwraps a JKS private key (the entry's EncryptedPrivateKeyInfo) with the key password. */
export function decryptJksKey(entry: RawKeyEntry, keyPassword: string): Buffer {
  const [alg, data] = seq(parseDer(entry.jksProtected!), 'EncryptedPrivateKeyInfo', 2);
  const oid = readOid(seq(alg, 'AlgorithmIdentifier', 1)[0]);
  if (oid !== OID.sunJksKeyProtector) throw new ConverterError('BAD_KEYSTORE', `proteção de chave JKS não suportada: ${oid}`);
  const blob = readOctets(data);
  if (blob.length < 41) throw new ConverterError('BAD_KEYSTORE', 'chave JKS curta demais');
  const pw = utf16be(keyPassword);
  const salt = blob.subarray(0, 20);
  const ct = blob.subarray(20, blob.length - 20);
  const check = blob.subarray(blob.length - 20);
  const plain = Buffer.alloc(ct.length);
  let d: Buffer = salt;
  for (let p = 0; p < ct.length; p += 20) {
    d = createHash('sha1').update(pw).update(d).digest();
    for (let i = 0; i < 20 && p + i < ct.length; i++) plain[p + i] = ct[p + i] ^ d[i];
  }
  const got = createHash('sha1').update(pw).update(plain).digest();
  if (!timingSafeEqual(got, check)) throw new ConverterError('KEYSTORE_PASSWORD', 'senha da chave JKS incorreta');
  return plain;
}
