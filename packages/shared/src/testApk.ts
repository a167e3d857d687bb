/**
 * "Testar no celular": the universal APK of a finished conversion's AAB, to install on a phone
 * before sending the bundle to Google Play (docs/apks.md, the service part).
 */

export const TEST_APK_MESSAGES = {
  /** Signed with the account's upload key. */
  signedWithUploadKey: (alias: string) =>
    `APK assinado com a sua chave de upload ("${alias}"). Instale no celular para testar; para o Google Play, envie o AAB.`,
  /** Signed with aabify's test key: said plainly, it must never reach Google Play. */
  signedWithTestKey:
    'APK assinado com uma chave de teste do aabify, NÃO com a sua chave de upload: serve só para instalar e testar no celular. Não envie este APK ao Google Play. Para assinar com a sua chave, cadastre-a em Conta › Chave de upload.',
  notAvailable: 'O APK de teste só pode ser gerado para uma conversão concluída cujo AAB ainda está disponível.',
  failed: 'Não foi possível gerar o APK de teste deste AAB.',
  /** An AAB → APK conversion: its output already is the APK. */
  alreadyAnApk: 'Esta conversão já gerou um APK a partir do AAB enviado: baixe-o pelo botão de download.',
  building: 'Gerando o APK de teste…',
  /** TEST_APK_BUSY (429): this server is building as many test APKs as it builds at once. */
  busy: 'O servidor já está gerando outros APKs de teste. Tente de novo em alguns segundos.',
} as const;

/** 'app.apk' → 'app-teste.apk' (also for a split set's name); 'app-teste.apk' without a name. */
export function testApkFileName(fileName: string | null | undefined): string {
  const base = (fileName ?? '').replace(/\.(apk|apks|xapk|apkm|zip|aab)$/i, '');
  return `${base || 'app'}-teste.apk`;
}

/** POST /conversion/test-apk/{id}: the APK built (or already built) and a link to it. */
export interface TestApkResponse {
  conversionId: string;
  filename: string;
  fileSize: number;
  /** Signed with aabify's test key (true) or the account's upload key (false). */
  testKey: boolean;
  /** The signing certificate's SHA-256, colon-separated hex as keytool prints it. */
  certificateSha256: string;
  /** pt-BR: which key signed it, and what that means. */
  message: string;
  /** A short-lived link to the APK (the download-link machinery): open it on the phone. */
  downloadUrl: string;
  expiresIn: number;
  expiresAt: string;
  /**
   * The link as a QR code (PNG, base64 without the data: prefix) to scan with the phone; null when
   * the server does not know its public address (PUBLIC_URL unset: the link is then a path).
   */
  qrCodePng: string | null;
}
