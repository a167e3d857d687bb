/**
 * The upload keystore form of /account/keystore (docs/signing.md "Sign conversions in the web service"): the yup schema of what the
 * user fills in, the file checks, the server's keystore errors mapped onto the form's fields,
 * and the base64 of the file for PUT /account/keystore. Pure, tested without a browser.
 */
import { mixed, object, string } from 'yup';
import { KEYSTORE_ERROR_MESSAGES, KEYSTORE_LIMITS, KEYSTORE_MESSAGES, type KeystoreErrorCode } from '@aabify/shared';
import type { FileLike } from './apkFile';
import type { RequestFailure } from './errors';

export const KEYSTORE_ACCEPT = '.p12,.pfx,.jks,.keystore,.bks,application/x-pkcs12';

export const KEYSTORE_FORM_MESSAGES = {
  fileRequired: 'Selecione o arquivo do keystore (.p12, .pfx ou .jks).',
  fileExtension: 'O arquivo deve ser um keystore .p12, .pfx, .jks ou .keystore.',
  fileEmpty: 'O arquivo do keystore está vazio.',
  fileTooLarge: KEYSTORE_MESSAGES.fileTooLarge,
  passwordRequired: KEYSTORE_MESSAGES.passwordRequired,
  passwordTooLong: KEYSTORE_MESSAGES.passwordTooLong,
  aliasTooLong: KEYSTORE_MESSAGES.aliasTooLong,
} as const;

/** The engine's codes for a keystore that does not open (the server sends the same text). */
export { KEYSTORE_ERROR_MESSAGES, type KeystoreErrorCode };

export interface KeystoreFormValues {
  file: File | null;
  alias: string;
  storePassword: string;
  keyPassword: string;
}

export const KEYSTORE_FORM_INITIAL: KeystoreFormValues = { file: null, alias: '', storePassword: '', keyPassword: '' };

/** The first problem with a chosen keystore file, or undefined. */
export function checkKeystoreFile(file: FileLike | null | undefined): string | undefined {
  if (!file) return KEYSTORE_FORM_MESSAGES.fileRequired;
  if (!/\.(p12|pfx|jks|keystore|bks)$/i.test(file.name)) return KEYSTORE_FORM_MESSAGES.fileExtension;
  if (file.size < 1) return KEYSTORE_FORM_MESSAGES.fileEmpty;
  if (file.size > KEYSTORE_LIMITS.maxBytes) return KEYSTORE_FORM_MESSAGES.fileTooLarge;
  return undefined;
}

export const keystoreFormSchema = object({
  file: mixed<FileLike>()
    .nullable()
    .test('keystore-file', KEYSTORE_FORM_MESSAGES.fileRequired, function (value) {
      const problem = checkKeystoreFile(value);
      return problem ? this.createError({ message: problem }) : true;
    }),
  alias: string().trim().max(KEYSTORE_LIMITS.aliasMax, KEYSTORE_FORM_MESSAGES.aliasTooLong),
  storePassword: string().required(KEYSTORE_FORM_MESSAGES.passwordRequired).max(KEYSTORE_LIMITS.passwordMax, KEYSTORE_FORM_MESSAGES.passwordTooLong),
  keyPassword: string().max(KEYSTORE_LIMITS.passwordMax, KEYSTORE_FORM_MESSAGES.passwordTooLong),
});

export type KeystoreFieldErrors = Partial<Record<'file' | 'alias' | 'storePassword' | 'keyPassword', string>>;

function isKeystoreCode(code: string | undefined): code is KeystoreErrorCode {
  return code !== undefined && code in KEYSTORE_ERROR_MESSAGES;
}

/**
 * A refused upload on the form's fields: the engine's codes (422) on the file, the password or
 * the alias (the alias error keeps the keystore's own aliases from `details`); the server's
 * validation fields (400) by name. Empty when the failure belongs to no field.
 */
export function keystoreFieldErrors(f: RequestFailure, values: Pick<KeystoreFormValues, 'keyPassword'> = { keyPassword: '' }): KeystoreFieldErrors {
  const out: KeystoreFieldErrors = {};
  if (isKeystoreCode(f.code)) {
    const message = f.message || KEYSTORE_ERROR_MESSAGES[f.code];
    if (f.code === 'KEYSTORE_PASSWORD') {
      // Store or key password: the engine does not say which; both fields point at it.
      out.storePassword = message;
      if (values.keyPassword) out.keyPassword = message;
    } else if (f.code === 'KEYSTORE_ALIAS') out.alias = typeof f.details === 'string' && f.details ? `${message} (${f.details})` : message;
    else out.file = message; // the file itself: corrupt, too large, too many entries, iterations
    return out;
  }
  for (const [k, v] of Object.entries(f.fields ?? {})) {
    if (k === 'keystore') out.file = v;
    else if (k === 'alias' || k === 'storePassword' || k === 'keyPassword') out[k] = v;
  }
  return out;
}

/** Bytes as base64 without a data: URL round trip (the file is at most 64 KB). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

