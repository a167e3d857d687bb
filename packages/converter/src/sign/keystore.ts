/**
 * Opens an upload keystore (PKCS#12 or JKS, told apart by their first bytes) and picks the
 * signing key: its alias, private key and certificate chain (signer first).
 */
import { readFile, stat } from 'node:fs/promises';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { KEYSTORE_LIMITS } from '@aabify/shared/keystores';
import { ConverterError, isConverterError } from '../errors.js';
import { JCEKS_MAGIC, JKS_MAGIC, decryptJksKey, readJks } from './jks.js';
import { KdfBudget } from './pbe.js';
import { decryptKey, readPkcs12, type RawCertEntry, type RawKeyEntry, type RawStore } from './pkcs12.js';
import { readCertificate, type CertificateInfo } from './x509.js';

/** Largest keystore file accepted (real ones are a few KB): KEYSTORE_TOO_LARGE past it. */
export const MAX_KEYSTORE_BYTES = KEYSTORE_LIMITS.maxBytes;

function tooLarge(bytes: number): never {
  throw new ConverterError('KEYSTORE_TOO_LARGE', `${bytes} bytes (máximo ${MAX_KEYSTORE_BYTES})`);
}

export interface KeystoreInput {
  /** The keystore's bytes, or a path to read it from. */
  keystore: Uint8Array | string;
  storePassword: string;
  /** Which key to use; optional when the store holds exactly one private key. */
  alias?: string;
  /** Defaults to the store password (keytool uses one password for both in PKCS#12). */
  keyPassword?: string;
}

export type KeyAlgorithm = 'RSA' | 'EC';

export interface SigningKey {
  alias: string;
  format: 'PKCS12' | 'JKS';
  algorithm: KeyAlgorithm;
  /** Key size in bits (RSA modulus, EC curve). */
  bits: number;
  privateKey: KeyObject;
  /** Signer certificate first, then the rest of its chain. */
  chain: CertificateInfo[];
}

export function keystoreFormat(bytes: Uint8Array): 'PKCS12' | 'JKS' {
  if (bytes.length >= 4) {
    const magic = Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32BE(0);
    if (magic === JKS_MAGIC || magic === JCEKS_MAGIC) return 'JKS';
  }
  if (bytes[0] === 0x30) return 'PKCS12';
  throw new ConverterError('BAD_KEYSTORE', 'o arquivo não é um keystore PKCS12 nem JKS');
}

async function keystoreBytes(k: Uint8Array | string): Promise<Uint8Array> {
  if (typeof k !== 'string') return k;
  try {
    // Sized before it is read: a path to a huge file must not be loaded whole.
    const { size } = await stat(k);
    if (size > MAX_KEYSTORE_BYTES) tooLarge(size);
    return await readFile(k);
  } catch (e) {
    if (isConverterError(e)) throw e;
    throw new ConverterError('BAD_KEYSTORE', `ler ${k}: ${(e as Error).message}`, { cause: e });
  }
}

/** Loads the signing key; BAD_KEYSTORE, KEYSTORE_PASSWORD or KEYSTORE_ALIAS when it cannot. */
export async function loadSigningKey(input: KeystoreInput): Promise<SigningKey> {
  return openKeystore(await keystoreBytes(input.keystore), input);
}

/**
 * Opens a keystore within the caps of KEYSTORE_LIMITS (size, iterations and their sum, entries,
 * certificates, chain length), each refused with its own code before the work it would cost.
 * Synchronous and CPU-bound (up to a few seconds at the caps): the server runs it in a worker.
 */
export function openKeystore(bytes: Uint8Array, input: Omit<KeystoreInput, 'keystore'>): SigningKey {
  if (bytes.length > MAX_KEYSTORE_BYTES) tooLarge(bytes.length);
  if (typeof input.storePassword !== 'string') throw new ConverterError('KEYSTORE_PASSWORD', 'senha do keystore ausente');
  const format = keystoreFormat(bytes);
  const budget = new KdfBudget();
  let store: RawStore;
  try {
    store = format === 'JKS' ? readJks(bytes, input.storePassword) : readPkcs12(bytes, input.storePassword, budget);
  } catch (e) {
    if (isConverterError(e)) throw e;
    throw new ConverterError('BAD_KEYSTORE', (e as Error).message, { cause: e });
  }
  const entry = pickKey(store.keys, input.alias);
  const keyPassword = input.keyPassword ?? input.storePassword;
  const pkcs8 = format === 'JKS' ? decryptJksKey(entry, keyPassword) : decryptKey(entry, keyPassword, budget);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  } catch (e) {
    // Decrypted bytes that are not a key: a wrong password that happened to pad correctly.
    throw new ConverterError('KEYSTORE_PASSWORD', `chave privada ilegível: ${(e as Error).message}`, { cause: e });
  }
  const type = privateKey.asymmetricKeyType;
  if (type !== 'rsa' && type !== 'ec') throw new ConverterError('BAD_KEYSTORE', `tipo de chave não suportado: ${type ?? '?'} (use RSA ou EC)`);
  const chain = buildChain(store.certs, entry, privateKey);
  const details = privateKey.asymmetricKeyDetails ?? {};
  const curveBits: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521 };
  return {
    alias: entry.alias ?? input.alias ?? 'upload',
    format,
    algorithm: type === 'rsa' ? 'RSA' : 'EC',
    bits: type === 'rsa' ? (details.modulusLength ?? 0) : (curveBits[details.namedCurve ?? ''] ?? 0),
    privateKey,
    chain,
  };
}

function pickKey(keys: RawKeyEntry[], alias: string | undefined): RawKeyEntry {
  const names = keys.map((k) => k.alias ?? '(sem alias)').join(', ') || 'nenhuma chave privada';
  if (alias === undefined || alias === '') {
    if (keys.length === 1) return keys[0];
    throw new ConverterError('KEYSTORE_ALIAS', keys.length === 0 ? 'o keystore não contém chave privada' : `informe o alias: ${names}`);
  }
  // keytool stores aliases in lower case; compare as it does.
  const found = keys.find((k) => k.alias?.toLowerCase() === alias.toLowerCase());
  if (!found) throw new ConverterError('KEYSTORE_ALIAS', `"${alias}" não encontrado; aliases com chave: ${names}`);
  return found;
}

function buildChain(certs: RawCertEntry[], key: RawKeyEntry, privateKey: KeyObject): CertificateInfo[] {
  const parsed = certs.map((c) => ({ raw: c, info: readCertificate(c.der) }));
  const leaf =
    (key.localKeyId && parsed.find((c) => c.raw.localKeyId?.equals(key.localKeyId!) && c.info.x509.checkPrivateKey(privateKey))) ||
    parsed.find((c) => c.info.x509.checkPrivateKey(privateKey));
  if (!leaf) throw new ConverterError('BAD_KEYSTORE', `nenhum certificado corresponde à chave "${key.alias ?? ''}"`);
  const chain = [leaf.info];
  for (;;) {
    const last = chain[chain.length - 1];
    if (last.x509.issuer === last.x509.subject) break;
    const next = parsed.find((c) => !chain.includes(c.info) && c.info.x509.subject === last.x509.issuer);
    if (!next) break;
    if (chain.length >= KEYSTORE_LIMITS.maxChainLength) {
      throw new ConverterError('KEYSTORE_CHAIN_TOO_LONG', `a cadeia de "${key.alias ?? ''}" passa de ${KEYSTORE_LIMITS.maxChainLength} certificados`);
    }
    chain.push(next.info);
  }
  return chain;
}
