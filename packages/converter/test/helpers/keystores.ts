/**
 * Keystores for the caps tests (converter, server, CLI, bench): honest and hostile ones made by
 * Java's keytool, as an attacker would, and hand-made PKCS#12 structures that no tool writes
 * (hundreds of bags, long chains) built with the engine's own DER writer.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { generateUploadKeystore } from '../../src/sign/keygen.js';
import { derExplicit, derInt, derOctets, derOid, derSeq } from '../../src/sign/der.js';
import { writePkcs12 } from '../../src/sign/pkcs12.js';
import { OID } from '../../src/sign/oids.js';
import { which } from './oracles.js';

export const KEYTOOL_HOW_TO_GET = 'keytool (Java 17: apt-get install -y openjdk-17-jdk-headless)';

export interface KeytoolStoreOptions {
  file: string;
  password: string;
  alias?: string;
  /** Iterations of the MAC, the key bag and the certificate bag. */
  iterations: number;
  /**
   * PKCS#12 v1 schemes (PBEWithSHA1AndDESede key, PBEWithSHA1AndRC2_40 certificates, HmacPBESHA1
   * MAC), whose KDF is the JS loop of pbe.ts; otherwise keytool's PBES2/AES-256 and HmacPBESHA256.
   */
  legacy?: boolean;
}

export function hasKeytool(): boolean {
  return which('keytool') !== undefined;
}

/**
 * `keytool -genkeypair` with the JDK's PKCS#12 security properties set on the command line
 * (JDK 17 names: keystore.pkcs12.{key,cert}PbeIterationCount, macIterationCount). Returns the bytes.
 */
export function keytoolKeystore(o: KeytoolStoreOptions): Buffer {
  const props: Record<string, string> = {
    'keystore.pkcs12.keyPbeIterationCount': String(o.iterations),
    'keystore.pkcs12.certPbeIterationCount': String(o.iterations),
    'keystore.pkcs12.macIterationCount': String(o.iterations),
    ...(o.legacy
      ? {
          'keystore.pkcs12.keyProtectionAlgorithm': 'PBEWithSHA1AndDESede',
          'keystore.pkcs12.certProtectionAlgorithm': 'PBEWithSHA1AndRC2_40',
          'keystore.pkcs12.macAlgorithm': 'HmacPBESHA1',
        }
      : {}),
  };
  execFileSync(
    'keytool',
    [
      ...Object.entries(props).map(([k, v]) => `-J-D${k}=${v}`),
      '-genkeypair',
      '-keystore',
      o.file,
      '-storetype',
      'PKCS12',
      '-storepass',
      o.password,
      '-alias',
      o.alias ?? 'upload',
      '-keyalg',
      'RSA',
      '-keysize',
      '2048',
      '-dname',
      'CN=Teste aabify, O=aabify, C=BR',
      '-validity',
      '10000',
    ],
    { stdio: 'pipe' },
  );
  return readFileSync(o.file);
}

/** A PKCS#12 file without MAC whose one plain SafeContents holds `bags` small secret bags. */
export function manyBagsPkcs12(bags: number): Buffer {
  const secretBagOid = '1.2.840.113549.1.12.10.1.5';
  const secretBag = derSeq(derOid(secretBagOid), derExplicit(0, derSeq(derOid(OID.data), derExplicit(0, derOctets(Buffer.from('x'))))));
  const safeContents = derSeq(...Array.from({ length: bags }, () => secretBag));
  const data = (content: Buffer): Buffer => derSeq(derOid(OID.data), derExplicit(0, derOctets(content)));
  return derSeq(derInt(3), data(derSeq(data(safeContents))));
}

/** A PKCS#12 file without MAC holding `count` copies of certificate `der` in plain cert bags. */
export function manyCertsPkcs12(der: Buffer, count: number): Buffer {
  const certBag = derSeq(derOid(OID.certBag), derExplicit(0, derSeq(derOid(OID.x509Certificate), derExplicit(0, derOctets(der)))));
  const data = (content: Buffer): Buffer => derSeq(derOid(OID.data), derExplicit(0, derOctets(content)));
  return derSeq(derInt(3), data(derSeq(data(derSeq(...Array.from({ length: count }, () => certBag))))));
}

/**
 * A JKS file (valid integrity digest for `password`) with one key entry whose chain declares
 * `chainLength` certificates, each `der`.
 */
export function jksWithChain(der: Buffer, chainLength: number, password: string): Buffer {
  const u16 = (n: number): Buffer => Buffer.from([n >> 8, n & 0xff]);
  const u32 = (n: number): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const utf = (s: string): Buffer => Buffer.concat([u16(Buffer.byteLength(s)), Buffer.from(s, 'utf8')]);
  const key = Buffer.alloc(64, 1);
  const certs = Array.from({ length: chainLength }, () => Buffer.concat([utf('X.509'), u32(der.length), der]));
  const body = Buffer.concat([u32(0xfeedfeed), u32(2), u32(1), u32(1), utf('upload'), Buffer.alloc(8), u32(key.length), key, u32(chainLength), ...certs]);
  const pw = Buffer.alloc(password.length * 2);
  for (let i = 0; i < password.length; i++) pw.writeUInt16BE(password.charCodeAt(i), i * 2);
  const digest = createHash('sha1').update(pw).update('Mighty Aphrodite', 'latin1').update(body).digest();
  return Buffer.concat([body, digest]);
}

/**
 * A keytool-like PKCS#12 (PBES2 bags) whose MAC declares `macIterations` (up to 8,388,607), made
 * without running that many rounds: written at 65,536 (a three-byte INTEGER) and patched, so
 * its MAC no longer verifies — a reader that derives before checking the count pays in full.
 */
export function pkcs12WithMacIterations(password: string, macIterations: number): Buffer {
  const gen = generateUploadKeystore({ password });
  const pkcs8 = gen.key.privateKey.export({ type: 'pkcs8', format: 'der' });
  const store = writePkcs12({ alias: 'upload', pkcs8, chain: [gen.key.chain[0].der], password, iterations: 0x10000 });
  const tail = store.subarray(store.length - 5);
  if (!tail.equals(Buffer.from([0x02, 0x03, 0x01, 0x00, 0x00]))) throw new Error('unexpected MacData layout');
  const count = derInt(macIterations);
  if (count.length !== 5) throw new Error('macIterations must need three bytes');
  return Buffer.concat([store.subarray(0, store.length - 5), count]);
}
