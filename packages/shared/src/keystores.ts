/**
 * The upload keystore a user may keep in the account to sign conversions (`options.sign`):
 * the request to store it, what the API shows of it (never the key), and pt-BR messages.
 */
import { object, string, type InferType } from 'yup';

export const KEYSTORE_LIMITS = {
  /** Real upload keystores are a few KB. */
  maxBytes: 64 * 1024,
  passwordMax: 256,
  aliasMax: 128,
} as const;

export const KEYSTORE_MESSAGES = {
  fileRequired: 'Envie o arquivo do keystore (PKCS12 ou JKS) em base64.',
  fileInvalid: 'O keystore deve ser enviado em base64.',
  fileTooLarge: `O keystore deve ter no máximo ${KEYSTORE_LIMITS.maxBytes / 1024} KB.`,
  passwordRequired: 'Informe a senha do keystore.',
  passwordTooLong: `A senha deve ter no máximo ${KEYSTORE_LIMITS.passwordMax} caracteres.`,
  aliasTooLong: `O alias deve ter no máximo ${KEYSTORE_LIMITS.aliasMax} caracteres.`,
  saved: 'Keystore salvo. As próximas conversões com assinatura usarão esta chave de upload.',
  deleted: 'Keystore removido da conta.',
  notFound: 'Nenhum keystore cadastrado nesta conta.',
  requiredForSigning: 'Para assinar a conversão, cadastre antes um keystore de upload na sua conta.',
  removedBeforeSigning: 'O keystore da conta foi removido antes da assinatura.',
} as const;

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

/** What the API shows of a stored keystore: enough to recognise it in Play Console, no secret. */
export interface KeystoreMetadata {
  alias: string;
  format: 'PKCS12' | 'JKS';
  keyAlgorithm: 'RSA' | 'EC';
  keySize: number;
  subject: string;
  certificateSha1: string;
  certificateSha256: string;
  notAfter: string;
  fileName: string | null;
  createdAt: string;
  updatedAt: string;
}
