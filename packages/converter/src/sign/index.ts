export { loadSigningKey, openKeystore, keystoreFormat, MAX_KEYSTORE_BYTES, type KeystoreInput, type SigningKey, type KeyAlgorithm } from './keystore.js';
export { buildSignatureFiles, isSignatureFile, signerName, manifestLine, MANIFEST_NAME, type SignatureFiles } from './jar.js';
export { generateUploadKeystore, generateTestKeystore, MIN_KEYSTORE_PASSWORD, TEST_KEY_PASSWORD, type GeneratedKeystore, type KeygenOptions } from './keygen.js';
export { readCertificate, fingerprint, toPem, type CertificateInfo } from './x509.js';
