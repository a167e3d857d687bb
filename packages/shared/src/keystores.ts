/**
 * The upload keystore a user may keep in the account to sign conversions (`options.sign`):
 * the request to store it, what the API shows of it (never the key), and pt-BR messages.
 */
import { formatNumber } from './numbers.js';

export const KEYSTORE_LIMITS = {
  /** Real upload keystores are a few KB; the engine refuses larger files (KEYSTORE_TOO_LARGE). */
  maxBytes: 64 * 1024,
  passwordMax: 256,
  aliasMax: 128,
  /**
   * Highest PBKDF2 / PKCS#12 KDF / MAC iteration count the engine accepts (KEYSTORE_ITERATIONS),
   * checked before any hashing. keytool (JDK 17, and Android Studio with its defaults) writes
   * 10,000; the keytools of JDK 8–15 50,000 for the bags and 100,000 for the MAC; OpenSSL 2,048.
   * So 100,000 is ten times today's default and still opens every older keytool's store.
   */
  maxKdfIterations: 100_000,
  /**
   * Iterations summed over every derivation one keystore needs (MAC, each encrypted bag's key and
   * IV): a legacy store at the maximum above needs 600,000. About 5 s of SHA-1 rounds at worst.
   */
  maxKdfWork: 1_000_000,
  /** Safe bags (PKCS#12) or entries (JKS) in one file (KEYSTORE_TOO_MANY_ENTRIES). */
  maxBags: 100,
  /** Certificates in one file (KEYSTORE_TOO_MANY_CERTIFICATES). */
  maxCertificates: 50,
  /** Certificates from the signer up to its root (KEYSTORE_CHAIN_TOO_LONG); real chains have 1 to 4. */
  maxChainLength: 10,
  /** The server opens a keystore in a worker thread and gives up (KEYSTORE_TIMEOUT) past this. */
  openBudgetMs: 10_000,
} as const;

/**
 * The engine's codes for a keystore it cannot open, with their pt-BR messages: the engine
 * (@aabify/converter CONVERTER_ERRORS), the server's 422 answers, the CLI and the dashboard's
 * form all use these.
 */
export const KEYSTORE_ERROR_MESSAGES = {
  BAD_KEYSTORE: 'O keystore de assinatura é inválido ou está corrompido.',
  KEYSTORE_PASSWORD: 'Senha do keystore incorreta.',
  KEYSTORE_ALIAS: 'Alias não encontrado no keystore.',
  KEYSTORE_TOO_LARGE: `O keystore excede o limite de ${KEYSTORE_LIMITS.maxBytes / 1024} KB; um keystore de upload tem poucos KB.`,
  KEYSTORE_ITERATIONS: `O keystore usa uma contagem de iterações acima do limite aceito (${formatNumber(KEYSTORE_LIMITS.maxKdfIterations)}). Exporte-o de novo com os padrões do keytool ou do Android Studio.`,
  KEYSTORE_TOO_MANY_ENTRIES: `O keystore tem entradas demais (máximo ${KEYSTORE_LIMITS.maxBags}). Exporte só a chave de upload para um keystore próprio.`,
  KEYSTORE_TOO_MANY_CERTIFICATES: `O keystore tem certificados demais (máximo ${KEYSTORE_LIMITS.maxCertificates}). Exporte só a chave de upload e sua cadeia.`,
  KEYSTORE_CHAIN_TOO_LONG: `A cadeia de certificados da chave é longa demais (máximo ${KEYSTORE_LIMITS.maxChainLength} certificados).`,
} as const;
export type KeystoreErrorCode = keyof typeof KEYSTORE_ERROR_MESSAGES;

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
  /** 422 KEYSTORE_TIMEOUT: the worker opening it ran past KEYSTORE_LIMITS.openBudgetMs and was stopped. */
  timedOut: `Abrir o keystore levou mais de ${KEYSTORE_LIMITS.openBudgetMs / 1000} segundos e foi interrompido. Exporte-o de novo com os padrões do keytool ou do Android Studio.`,
  /** 429 KEYSTORE_BUSY: one keystore operation per user at a time (and a few per server). */
  busy: 'Já há um keystore sendo processado. Aguarde alguns segundos e tente de novo.',
} as const;

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
