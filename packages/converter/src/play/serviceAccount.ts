/**
 * A Google Cloud service-account key (the JSON file IAM › Service accounts › Keys gives): read,
 * checked and reduced to what the JWT-bearer flow needs. The private key never leaves this
 * object except to sign (jwt.ts); what may be shown is the client e-mail and the project.
 */
import { createPrivateKey } from 'node:crypto';
import { PLAY_LIMITS } from '@aabify/shared/play';
import { PlayError } from './errors.js';

export interface ServiceAccountKey {
  clientEmail: string;
  privateKey: string;
  privateKeyId: string | null;
  projectId: string | null;
  /** The key file's token_uri (used only when it is Google's, see endpoints.ts). */
  tokenUri: string | null;
}

function field(o: Record<string, unknown>, name: string): string | null {
  const v = o[name];
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

/** Parses the key file's text; PLAY_KEY_INVALID for anything that is not a usable service-account key. */
export function parseServiceAccountKey(text: string): ServiceAccountKey {
  if (text.length > PLAY_LIMITS.keyMaxBytes) throw new PlayError('PLAY_KEY_INVALID', { detail: `key of ${text.length} bytes` });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PlayError('PLAY_KEY_INVALID', { detail: 'not JSON' });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PlayError('PLAY_KEY_INVALID', { detail: 'not a JSON object' });
  const o = value as Record<string, unknown>;
  const clientEmail = field(o, 'client_email');
  const privateKey = typeof o.private_key === 'string' ? o.private_key : null;
  if (o.type !== 'service_account' || !clientEmail || !privateKey) {
    throw new PlayError('PLAY_KEY_INVALID', { detail: 'type service_account, client_email and private_key are required' });
  }
  if (!/^[^@\s]+@[^@\s]+$/.test(clientEmail) || clientEmail.length > 254) throw new PlayError('PLAY_KEY_INVALID', { detail: 'client_email is not an e-mail address' });
  try {
    const key = createPrivateKey(privateKey);
    if (key.asymmetricKeyType !== 'rsa') throw new Error(`key type ${key.asymmetricKeyType}`);
  } catch (e) {
    throw new PlayError('PLAY_KEY_INVALID', { detail: `private_key: ${(e as Error).message}` });
  }
  return {
    clientEmail,
    privateKey,
    privateKeyId: field(o, 'private_key_id'),
    projectId: field(o, 'project_id'),
    tokenUri: field(o, 'token_uri'),
  };
}

/** The key file's text again (what the server encrypts and the CLI passes along). */
export function serviceAccountJson(key: ServiceAccountKey): string {
  return JSON.stringify({
    type: 'service_account',
    project_id: key.projectId ?? undefined,
    private_key_id: key.privateKeyId ?? undefined,
    private_key: key.privateKey,
    client_email: key.clientEmail,
    token_uri: key.tokenUri ?? undefined,
  });
}
