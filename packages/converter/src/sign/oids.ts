/** Object identifiers of the keystore, X.509 and PKCS#7 structures the signer reads and writes. */
export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  encryptedData: '1.2.840.113549.1.7.6',

  keyBag: '1.2.840.113549.1.12.10.1.1',
  pkcs8ShroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  safeContentsBag: '1.2.840.113549.1.12.10.1.6',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  friendlyName: '1.2.840.113549.1.9.20',
  localKeyId: '1.2.840.113549.1.9.21',

  pbeSha1Rc4_128: '1.2.840.113549.1.12.1.1',
  pbeSha1Rc4_40: '1.2.840.113549.1.12.1.2',
  pbeSha1TripleDes: '1.2.840.113549.1.12.1.3',
  pbeSha1TwoKeyTripleDes: '1.2.840.113549.1.12.1.4',
  pbeSha1Rc2_128: '1.2.840.113549.1.12.1.5',
  pbeSha1Rc2_40: '1.2.840.113549.1.12.1.6',
  pbes2: '1.2.840.113549.1.5.13',
  pbkdf2: '1.2.840.113549.1.5.12',
  hmacSha1: '1.2.840.113549.2.7',
  hmacSha224: '1.2.840.113549.2.8',
  hmacSha256: '1.2.840.113549.2.9',
  hmacSha384: '1.2.840.113549.2.10',
  hmacSha512: '1.2.840.113549.2.11',
  aes128Cbc: '2.16.840.1.101.3.4.1.2',
  aes192Cbc: '2.16.840.1.101.3.4.1.22',
  aes256Cbc: '2.16.840.1.101.3.4.1.42',
  desEde3Cbc: '1.2.840.113549.3.7',

  sha1: '1.3.14.3.2.26',
  sha224: '2.16.840.1.101.3.4.2.4',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',

  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaWithSha1: '1.2.840.10045.4.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',

  sunJksKeyProtector: '1.3.6.1.4.1.42.2.17.1.1',

  commonName: '2.5.4.3',
  country: '2.5.4.6',
  locality: '2.5.4.7',
  state: '2.5.4.8',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
  subjectKeyIdentifier: '2.5.29.14',
} as const;

/** Digest OIDs (PKCS#12 MAC DigestInfo) to node:crypto names, with the PKCS#12 KDF block size. */
export const DIGESTS: Record<string, { name: string; block: number }> = {
  [OID.sha1]: { name: 'sha1', block: 64 },
  [OID.sha224]: { name: 'sha224', block: 64 },
  [OID.sha256]: { name: 'sha256', block: 64 },
  [OID.sha384]: { name: 'sha384', block: 128 },
  [OID.sha512]: { name: 'sha512', block: 128 },
};

export const PRFS: Record<string, string> = {
  [OID.hmacSha1]: 'sha1',
  [OID.hmacSha224]: 'sha224',
  [OID.hmacSha256]: 'sha256',
  [OID.hmacSha384]: 'sha384',
  [OID.hmacSha512]: 'sha512',
};

export const PBES2_CIPHERS: Record<string, { name: string; keyLength: number }> = {
  [OID.aes128Cbc]: { name: 'aes-128-cbc', keyLength: 16 },
  [OID.aes192Cbc]: { name: 'aes-192-cbc', keyLength: 24 },
  [OID.aes256Cbc]: { name: 'aes-256-cbc', keyLength: 32 },
  [OID.desEde3Cbc]: { name: 'des-ede3-cbc', keyLength: 24 },
};
