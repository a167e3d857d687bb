/**
 * The JAR (v1) signature of an AAB (docs/aab-format.md "Signing") or of an APK for Android before
 * 7.0: META-INF/MANIFEST.MF with each entry's digest, the .SF with the digests of the manifest and
 * of each of its sections, and a detached PKCS#7 SignedData over the .SF (no signed attributes:
 * the apksig/AGP style Play has accepted for years). SHA-256 by default; SHA-1 for APKs that must
 * install on Android before 4.3, which knows no other digest in JAR signatures (docs/apks.md).
 */
import { createHash, sign } from 'node:crypto';
import { derAlg, derExplicit, derImplicit, derInt, derOctets, derOid, derSeq, derSet } from './der.js';
import type { SigningKey } from './keystore.js';
import { OID } from './oids.js';

export const CREATED_BY = '1.0 (aabify)';
export const MANIFEST_NAME = 'META-INF/MANIFEST.MF';

/** jarsigner's rule: upper case, at most 8 characters, anything outside A-Z0-9_- becomes '_'. */
export function signerName(alias: string): string {
  const s = alias.toUpperCase().slice(0, 8).replace(/[^A-Z0-9_-]/g, '_');
  return s === '' ? 'SIGNER' : s;
}

/** True for names jarsigner leaves out of the manifest (the signature files themselves). */
export function isSignatureFile(name: string): boolean {
  const upper = name.toUpperCase();
  if (upper === MANIFEST_NAME) return true;
  if (!upper.startsWith('META-INF/') || upper.indexOf('/', 9) !== -1) return false;
  const base = upper.slice(9);
  return /\.(SF|RSA|DSA|EC)$/.test(base) || base.startsWith('SIG-');
}

const CRLF = '\r\n';

/** One `Key: value` header, wrapped at 72 bytes with continuation lines, never inside a character. */
export function manifestLine(key: string, value: string): Buffer {
  const bytes = Buffer.from(`${key}: ${value}`, 'utf8');
  const lines: Buffer[] = [];
  let p = 0;
  let width = 72;
  while (bytes.length - p > width) {
    let cut = p + width;
    while (cut > p && (bytes[cut] & 0xc0) === 0x80) cut--;
    lines.push(bytes.subarray(p, cut));
    p = cut;
    width = 71;
  }
  lines.push(bytes.subarray(p));
  return Buffer.concat(lines.flatMap((l, i) => (i === 0 ? [l, Buffer.from(CRLF)] : [Buffer.from(' '), l, Buffer.from(CRLF)])));
}

const section = (...lines: Buffer[]): Buffer => Buffer.concat([...lines, Buffer.from(CRLF)]);

export type JarDigest = 'sha1' | 'sha256';

export interface JarSignatureOptions {
  /** Digest of the entries, the manifest and its sections (default sha256). */
  digest?: JarDigest;
  /**
   * `X-Android-APK-Signed` of the .SF (e.g. "2, 3"): the APK Signature Scheme versions an APK
   * also carries, so Android 7.0+ refuses a copy stripped of them.
   */
  apkSigned?: string;
}

const DIGEST_NAMES: Record<JarDigest, string> = { sha1: 'SHA1', sha256: 'SHA-256' };

export interface SignatureFiles {
  files: { name: string; data: Buffer }[];
  /** Base name of the .SF and block files (e.g. UPLOAD). */
  signer: string;
  /** e.g. SHA256withRSA. */
  algorithm: string;
}

/**
 * Builds the three signature files from the digests of every entry (in the order given, which
 * is the order they were written). `digests` holds SHA-256 of each entry's uncompressed bytes.
 */
export function buildSignatureFiles(digests: Iterable<[string, Uint8Array]>, key: SigningKey, options: JarSignatureOptions = {}): SignatureFiles {
  const algo = options.digest ?? 'sha256';
  const attr = DIGEST_NAMES[algo];
  const digestOf = (b: Uint8Array): string => createHash(algo).update(b).digest('base64');
  const mainMf = section(manifestLine('Manifest-Version', '1.0'), manifestLine('Created-By', CREATED_BY));
  const mfParts: Buffer[] = [mainMf];
  const sfSections: Buffer[] = [];
  for (const [name, digest] of digests) {
    if (isSignatureFile(name) || name.endsWith('/')) continue;
    const s = section(manifestLine('Name', name), manifestLine(`${attr}-Digest`, Buffer.from(digest).toString('base64')));
    mfParts.push(s);
    sfSections.push(section(manifestLine('Name', name), manifestLine(`${attr}-Digest`, digestOf(s))));
  }
  const manifest = Buffer.concat(mfParts);
  const sfMain = section(
    manifestLine('Signature-Version', '1.0'),
    manifestLine('Created-By', CREATED_BY),
    manifestLine(`${attr}-Digest-Manifest`, digestOf(manifest)),
    manifestLine(`${attr}-Digest-Manifest-Main-Attributes`, digestOf(mainMf)),
    ...(options.apkSigned ? [manifestLine('X-Android-APK-Signed', options.apkSigned)] : []),
  );
  const sf = Buffer.concat([sfMain, ...sfSections]);
  const signer = signerName(key.alias);
  const rsa = key.algorithm === 'RSA';
  const signature = sign(algo, sf, rsa ? key.privateKey : { key: key.privateKey, dsaEncoding: 'der' });
  const leaf = key.chain[0];
  const digestOid = algo === 'sha1' ? OID.sha1 : OID.sha256;
  const signerInfo = derSeq(
    derInt(1),
    derSeq(leaf.issuer, leaf.serial),
    derAlg(digestOid),
    rsa ? derAlg(OID.rsaEncryption) : derAlg(algo === 'sha1' ? OID.ecdsaWithSha1 : OID.ecdsaWithSha256, null),
    derOctets(signature),
  );
  const signedData = derSeq(
    derInt(1),
    derSet(derAlg(digestOid)),
    derSeq(derOid(OID.data)),
    derImplicit(0, Buffer.concat(key.chain.map((c) => c.der))),
    derSet(signerInfo),
  );
  const block = derSeq(derOid(OID.signedData), derExplicit(0, signedData));
  return {
    signer,
    algorithm: `${algo === 'sha1' ? 'SHA1' : 'SHA256'}with${rsa ? 'RSA' : 'ECDSA'}`,
    files: [
      { name: MANIFEST_NAME, data: manifest },
      { name: `META-INF/${signer}.SF`, data: sf },
      { name: `META-INF/${signer}.${rsa ? 'RSA' : 'EC'}`, data: block },
    ],
  };
}
