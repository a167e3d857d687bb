/**
 * Secret settings at rest: AES-256-GCM with the data dir's encryption key. The setting's key
 * is the additional authenticated data, so a ciphertext copied onto another row fails to open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface EncryptedValue {
  alg: 'aes-256-gcm';
  iv: string;
  tag: string;
  data: string;
}

export function isEncryptedValue(value: unknown): value is EncryptedValue {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.alg === 'aes-256-gcm' && typeof v.iv === 'string' && typeof v.tag === 'string' && typeof v.data === 'string';
}

function keyBytes(keyBase64: string): Buffer {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('settings encryption key must be 32 bytes (base64)');
  return key;
}

export function encryptJson(value: unknown, keyBase64: string, aad: string): EncryptedValue {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyBytes(keyBase64), iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { alg: 'aes-256-gcm', iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/** Throws when the key is wrong or the ciphertext was altered. */
export function decryptJson(value: EncryptedValue, keyBase64: string, aad: string): unknown {
  const decipher = createDecipheriv('aes-256-gcm', keyBytes(keyBase64), Buffer.from(value.iv, 'base64'));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(value.tag, 'base64'));
  const plain = Buffer.concat([decipher.update(Buffer.from(value.data, 'base64')), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as unknown;
}

/** The keys that may open a value: the current one, and the previous one during a rotation. */
export interface KeyRing {
  current: string;
  previous?: string;
}

/**
 * Opens with the current key, else with the previous one (`stale`: the value should be
 * re-encrypted, settings/rotation.ts). Throws when neither opens it.
 */
export function openJson(value: EncryptedValue, keys: KeyRing, aad: string): { value: unknown; stale: boolean } {
  try {
    return { value: decryptJson(value, keys.current, aad), stale: false };
  } catch (err) {
    if (!keys.previous) throw err;
    return { value: decryptJson(value, keys.previous, aad), stale: true };
  }
}

export function keyRingOf(secrets: { encryptionKey: string; encryptionKeyPrevious?: string }): KeyRing {
  return { current: secrets.encryptionKey, previous: secrets.encryptionKeyPrevious };
}
