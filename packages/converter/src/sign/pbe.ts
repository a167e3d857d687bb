/**
 * Password-based encryption of PKCS#12 bags: PBES2 (PBKDF2 + AES/3DES-CBC, keytool's default
 * since JDK 16) and the PKCS#12 v1 schemes (SHA-1 with 3DES or RC2, what older keytools write),
 * plus the PKCS#12 key derivation used by those schemes and by the store's MAC.
 */
import { createCipheriv, createDecipheriv, createHash, hash as hashOnce, pbkdf2Sync, randomBytes } from 'node:crypto';
import { KEYSTORE_LIMITS } from '@aabify/shared/keystores';
import { ConverterError } from '../errors.js';
import { derAlg, derInt, derOctets, derOid, derSeq, readOctets, readOid, readSmallInt, seq, type Der } from './der.js';
import { OID, PBES2_CIPHERS, PRFS } from './oids.js';
import { rc2CbcDecrypt } from './rc2.js';

/**
 * Iterations above this are refused before any hashing: a hostile keystore must not pin a CPU
 * (1,000,000 legacy PKCS#12 rounds take ~5 s each in JS). 100,000 is ten times keytool's default.
 */
export const MAX_KDF_ITERATIONS = KEYSTORE_LIMITS.maxKdfIterations;

/**
 * The derivation work one keystore may cost, in hash rounds summed over every derivation (MAC,
 * each bag's key and IV): many bags each at the maximum count are refused as one at 10×.
 * Every charge is checked before the hashing it pays for.
 */
export class KdfBudget {
  private spent = 0;
  constructor(private readonly max: number = KEYSTORE_LIMITS.maxKdfWork) {}

  /** Charges `iterations` × `rounds`; KEYSTORE_ITERATIONS when the count or the total is too high. */
  charge(iterations: number, rounds = 1): void {
    checkIterations(iterations);
    this.spent += iterations * rounds;
    if (this.spent > this.max) throw new ConverterError('KEYSTORE_ITERATIONS', `derivações somam ${this.spent} iterações (máximo ${this.max})`);
  }
}

const digestLength = (hash: string): number => createHash(hash).digest().length;

/** BMPString of the password with its two-byte terminator, as PKCS#12 hashes it. */
export function bmpPassword(password: string): Buffer {
  const b = Buffer.alloc(password.length * 2 + 2);
  for (let i = 0; i < password.length; i++) b.writeUInt16BE(password.charCodeAt(i), i * 2);
  return b;
}

/** RFC 7292 appendix B.2: derives `n` bytes for `id` (1 key, 2 IV, 3 MAC key). */
export function pkcs12Kdf(hash: string, block: number, password: Buffer, salt: Uint8Array, id: 1 | 2 | 3, iterations: number, n: number, budget?: KdfBudget): Buffer {
  checkIterations(iterations);
  budget?.charge(iterations, Math.ceil(n / digestLength(hash)));
  const v = block;
  const D = Buffer.alloc(v, id);
  const fill = (src: Uint8Array): Buffer => {
    if (src.length === 0) return Buffer.alloc(0);
    const len = v * Math.ceil(src.length / v);
    const out = Buffer.alloc(len);
    for (let i = 0; i < len; i++) out[i] = src[i % src.length];
    return out;
  };
  const I = Buffer.concat([fill(salt), fill(password)]);
  const out: Buffer[] = [];
  let got = 0;
  while (got < n) {
    let A = createHash(hash).update(D).update(I).digest();
    // One-shot hashing: a Hash object per iteration was most of a 10,000-iteration keystore's ~65 ms.
    for (let i = 1; i < iterations; i++) A = hashOnce(hash, A, 'buffer');
    out.push(A);
    got += A.length;
    if (got >= n) break;
    const B = fill(A).subarray(0, v);
    for (let j = 0; j < I.length; j += v) {
      let carry = 1;
      for (let k = v - 1; k >= 0; k--) {
        const sum = I[j + k] + B[k] + carry;
        I[j + k] = sum & 0xff;
        carry = sum >> 8;
      }
    }
  }
  return Buffer.concat(out).subarray(0, n);
}

export function checkIterations(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new ConverterError('BAD_KEYSTORE', `contagem de iterações ${n} fora do intervalo`);
  if (n > MAX_KDF_ITERATIONS) throw new ConverterError('KEYSTORE_ITERATIONS', `${n} iterações (máximo ${MAX_KDF_ITERATIONS})`);
}

/** Thrown (and caught by the keystore readers) when decryption fails: wrong password, or corruption. */
export class DecryptFailure extends Error {}

function decipher(name: string, key: Uint8Array, iv: Uint8Array, data: Uint8Array): Buffer {
  try {
    const d = createDecipheriv(name, key, iv);
    return Buffer.concat([d.update(data), d.final()]);
  } catch (e) {
    throw new DecryptFailure((e as Error).message);
  }
}

/** Decrypts `data` protected by the AlgorithmIdentifier `alg` with `password`, charging `budget`. */
export function pbeDecrypt(alg: Der, password: string, data: Uint8Array, budget: KdfBudget): Buffer {
  const [oidDer, params] = seq(alg, 'AlgorithmIdentifier', 1);
  const oid = readOid(oidDer);
  if (oid === OID.pbes2) return pbes2Decrypt(params, password, data, budget);
  const legacy: Record<string, { cipher: string; keyLength: number; rc2Bits?: number }> = {
    [OID.pbeSha1TripleDes]: { cipher: 'des-ede3-cbc', keyLength: 24 },
    [OID.pbeSha1TwoKeyTripleDes]: { cipher: 'des-ede-cbc', keyLength: 16 },
    [OID.pbeSha1Rc2_128]: { cipher: 'rc2', keyLength: 16, rc2Bits: 128 },
    [OID.pbeSha1Rc2_40]: { cipher: 'rc2', keyLength: 5, rc2Bits: 40 },
  };
  const scheme = legacy[oid];
  if (!scheme) throw new ConverterError('BAD_KEYSTORE', `algoritmo de proteção não suportado: ${oid}`);
  const [saltDer, iterDer] = seq(params, 'PBEParameter', 2);
  const salt = readOctets(saltDer);
  const iterations = readSmallInt(iterDer);
  checkIterations(iterations);
  const pw = bmpPassword(password);
  const key = pkcs12Kdf('sha1', 64, pw, salt, 1, iterations, scheme.keyLength, budget);
  const iv = pkcs12Kdf('sha1', 64, pw, salt, 2, iterations, 8, budget);
  if (scheme.rc2Bits !== undefined) {
    const out = rc2CbcDecrypt(key, scheme.rc2Bits, iv, data);
    if (!out) throw new DecryptFailure('RC2: padding inválido');
    return out;
  }
  return decipher(scheme.cipher, key, iv, data);
}

function pbes2Decrypt(params: Der | undefined, password: string, data: Uint8Array, budget: KdfBudget): Buffer {
  const [kdf, enc] = seq(params, 'PBES2-params', 2);
  const [kdfOid, kdfParams] = seq(kdf, 'keyDerivationFunc', 2);
  if (readOid(kdfOid) !== OID.pbkdf2) throw new ConverterError('BAD_KEYSTORE', `KDF não suportada: ${readOid(kdfOid)}`);
  const p = seq(kdfParams, 'PBKDF2-params', 2);
  const salt = readOctets(p[0], 'salt');
  const iterations = readSmallInt(p[1], 'iterationCount');
  checkIterations(iterations);
  let keyLength: number | undefined;
  let prf = 'sha1';
  for (const extra of p.slice(2)) {
    if (extra.tag === 0x02) keyLength = readSmallInt(extra, 'keyLength');
    else {
      const prfOid = readOid(seq(extra, 'prf', 1)[0]);
      const name = PRFS[prfOid];
      if (!name) throw new ConverterError('BAD_KEYSTORE', `PRF não suportada: ${prfOid}`);
      prf = name;
    }
  }
  const [encOid, ivDer] = seq(enc, 'encryptionScheme', 2);
  const cipher = PBES2_CIPHERS[readOid(encOid)];
  if (!cipher) throw new ConverterError('BAD_KEYSTORE', `cifra não suportada: ${readOid(encOid)}`);
  const iv = readOctets(ivDer, 'IV');
  // PBKDF2's cost grows with the key length too: only the cipher's own length is accepted.
  if (keyLength !== undefined && keyLength !== cipher.keyLength) throw new ConverterError('BAD_KEYSTORE', `keyLength ${keyLength} para ${cipher.name}`);
  budget.charge(iterations, Math.ceil(cipher.keyLength / digestLength(prf)));
  const key = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, iterations, cipher.keyLength, prf);
  return decipher(cipher.name, key, iv, data);
}

/** PBES2 with PBKDF2-HmacSHA256 and AES-256-CBC: keytool's default since JDK 16. Returns [alg, ciphertext]. */
export function pbes2Encrypt(password: string, data: Uint8Array, iterations = 10_000): [Buffer, Buffer] {
  const salt = randomBytes(20);
  const iv = randomBytes(16);
  const key = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, iterations, 32, 'sha256');
  const c = createCipheriv('aes-256-cbc', key, iv);
  const ct = Buffer.concat([c.update(data), c.final()]);
  const alg = derSeq(
    derOid(OID.pbes2),
    derSeq(
      derSeq(derOid(OID.pbkdf2), derSeq(derOctets(salt), derInt(iterations), derInt(32), derAlg(OID.hmacSha256))),
      derSeq(derOid(OID.aes256Cbc), derOctets(iv)),
    ),
  );
  return [alg, ct];
}
