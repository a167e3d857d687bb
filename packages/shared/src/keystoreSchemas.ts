/**
 * The request schema of the account's upload keystore (keystores.ts), kept apart from its limits
 * and messages, which the engine imports at start without building schemas (index.ts).
 */
import { object, string, type InferType } from 'yup';
import { KEYSTORE_LIMITS, KEYSTORE_MESSAGES } from './keystores.js';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** PUT /api/account/keystore. */
export const keystoreUploadSchema = object({
  keystore: string()
    .required(KEYSTORE_MESSAGES.fileRequired)
    .trim()
    .matches(BASE64, KEYSTORE_MESSAGES.fileInvalid)
    .test('size', KEYSTORE_MESSAGES.fileTooLarge, (v) => v === undefined || Math.floor((v.length * 3) / 4) <= KEYSTORE_LIMITS.maxBytes),
  storePassword: string().required(KEYSTORE_MESSAGES.passwordRequired).max(KEYSTORE_LIMITS.passwordMax, KEYSTORE_MESSAGES.passwordTooLong),
  alias: string().trim().max(KEYSTORE_LIMITS.aliasMax, KEYSTORE_MESSAGES.aliasTooLong).optional(),
  keyPassword: string().max(KEYSTORE_LIMITS.passwordMax, KEYSTORE_MESSAGES.passwordTooLong).optional(),
  fileName: string().trim().max(255).optional(),
});
export type KeystoreUpload = InferType<typeof keystoreUploadSchema>;
