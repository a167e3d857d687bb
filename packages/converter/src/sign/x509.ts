/**
 * What the signer needs from X.509 certificates (issuer and serial for the PKCS#7 SignerInfo,
 * subject, fingerprints), and a self-signed certificate writer for `aabify keygen`.
 */
import { X509Certificate, createHash, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import { ConverterError } from '../errors.js';
import {
  TAG,
  children,
  derAlg,
  derBitString,
  derExplicit,
  derInt,
  derOctets,
  derOid,
  derPrintable,
  derSeq,
  derSet,
  derTime,
  derUtf8,
  expectTag,
  parseDer,
  readTlv,
  seq,
} from './der.js';
import { OID } from './oids.js';

export interface CertificateInfo {
  der: Buffer;
  /** The TLVs of the issuer Name and the serial INTEGER, as encoded (for IssuerAndSerialNumber). */
  issuer: Buffer;
  serial: Buffer;
  subject: string;
  issuerText: string;
  notAfter: Date;
  sha1: string;
  sha256: string;
  x509: X509Certificate;
}

/** Parses a DER certificate; BAD_KEYSTORE when it does not parse. */
export function readCertificate(der: Uint8Array): CertificateInfo {
  const buf = Buffer.from(der);
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(buf);
  } catch (e) {
    throw new ConverterError('BAD_KEYSTORE', `certificado ilegível: ${(e as Error).message}`, { cause: e });
  }
  const [tbs] = seq(parseDer(buf), 'Certificate', 3);
  const fields = seq(tbs, 'TBSCertificate', 6);
  const off = fields[0].tag === 0xa0 ? 1 : 0;
  const serial = expectTag(fields[off], TAG.INTEGER, 'serialNumber').bytes;
  const issuer = expectTag(fields[off + 2], TAG.SEQUENCE, 'issuer').bytes;
  return {
    der: buf,
    issuer,
    serial,
    subject: x509.subject.split('\n').reverse().join(', '),
    issuerText: x509.issuer.split('\n').reverse().join(', '),
    notAfter: new Date(x509.validTo),
    sha1: fingerprint(buf, 'sha1'),
    sha256: fingerprint(buf, 'sha256'),
    x509,
  };
}

/** `AA:BB:...` as keytool and Play Console show it. */
export function fingerprint(der: Uint8Array, hash: 'sha1' | 'sha256'): string {
  return createHash(hash).update(der).digest('hex').toUpperCase().match(/../g)!.join(':');
}

export function toPem(der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64').match(/.{1,64}/g)!.join('\n');
  return `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`;
}

const DN_KEYS: Record<string, string> = {
  CN: OID.commonName,
  OU: OID.organizationalUnit,
  O: OID.organization,
  L: OID.locality,
  ST: OID.state,
  S: OID.state,
  C: OID.country,
};

/** Parses `CN=Ana, O=Empresa, C=BR` (RFC 2253 order, `\,` escapes a comma) into a DER Name. */
export function encodeDistinguishedName(dname: string): Buffer {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < dname.length; i++) {
    const ch = dname[i];
    if (ch === '\\' && i + 1 < dname.length) cur += dname[++i];
    else if (ch === ',') {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  const rdns: Buffer[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim().toUpperCase();
    const value = part.slice(eq + 1).trim();
    const oid = DN_KEYS[key];
    if (eq <= 0 || !oid || value === '') throw new ConverterError('INVALID_OPTIONS', `nome distinto inválido: "${part.trim()}" (use CN=, OU=, O=, L=, ST=, C=)`);
    if (key === 'C' && !/^[A-Za-z]{2}$/.test(value)) throw new ConverterError('INVALID_OPTIONS', `país deve ter 2 letras: "${value}"`);
    rdns.push(derSet(derSeq(derOid(oid), key === 'C' ? derPrintable(value.toUpperCase()) : derUtf8(value))));
  }
  // The string lists the most specific part first; the encoding starts from the root.
  return derSeq(...rdns.reverse());
}

export interface SelfSignedOptions {
  dname: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  validityDays: number;
  now?: Date;
}

/** A v3 self-signed certificate (SHA256withRSA), as `keytool -genkeypair` makes for an upload key. */
export function selfSignedCertificate(o: SelfSignedOptions): Buffer {
  const name = encodeDistinguishedName(o.dname);
  const now = o.now ?? new Date();
  const notBefore = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const notAfter = new Date(notBefore.getTime() + o.validityDays * 86_400_000);
  const spki = o.publicKey.export({ type: 'spki', format: 'der' });
  const [, bits] = children(readTlv(spki));
  const ski = createHash('sha1').update(bits.content.subarray(1)).digest();
  const serial = randomBytes(8);
  serial[0] &= 0x7f;
  const sigAlg = derAlg(OID.sha256WithRsa);
  const tbs = derSeq(
    derExplicit(0, derInt(2)),
    derInt(serial),
    sigAlg,
    name,
    derSeq(derTime(notBefore), derTime(notAfter)),
    name,
    spki,
    derExplicit(3, derSeq(derSeq(derOid(OID.subjectKeyIdentifier), derOctets(derOctets(ski))))),
  );
  const signature = sign('sha256', tbs, o.privateKey);
  const cert = derSeq(tbs, sigAlg, derBitString(signature));
  // Proves the certificate against its own key before anyone stores it.
  if (!new X509Certificate(cert).verify(createPublicKey(o.privateKey))) throw new ConverterError('INTERNAL', 'certificado gerado não confere');
  return cert;
}
