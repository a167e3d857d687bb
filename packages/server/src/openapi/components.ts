/**
 * The document's reusable parts: the one error shape, the error answers, the auth schemes and
 * the answer schemas of the resources (as the presenters write them). Answer schemas list the
 * fields clients rely on and their types; presenters may add fields (additionalProperties stays
 * open) but never drop or retype one without the contract test noticing.
 */
import { API_TOKEN_SCOPES, CONVERSION_KINDS, CONVERSION_STATUSES } from '@aabify/shared';
import type { JsonSchema } from './jsonSchema.js';

const str = { type: 'string' };
const strOrNull = { type: ['string', 'null'] };
const int = { type: 'integer' };
const num = { type: 'number' };
const bool = { type: 'boolean' };
const dateTime = { type: 'string', format: 'date-time' };
const dateTimeOrNull = { type: ['string', 'null'], format: 'date-time' };
const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({ type: 'object', properties, required });
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

export const schemas: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    description: 'A resposta de erro de toda rota: mensagem em pt-BR, código estável, detalhes opcionais, campos inválidos (400) e espera (429).',
    properties: {
      message: { type: 'string', description: 'Mensagem em pt-BR, para mostrar ao usuário.' },
      code: { type: 'string', description: 'Código estável (ex.: VALIDATION_ERROR, TOKEN_INVALID, NO_CREDITS, RATE_LIMIT).' },
      details: { description: 'Fatos do erro (ex.: planStatus e redirectTo em 402).' },
      fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'Campo → primeira mensagem de validação (400 VALIDATION_ERROR).' },
      retryAfter: { type: 'number', description: 'Segundos até tentar de novo (429; também no cabeçalho Retry-After).' },
    },
    required: ['message', 'code'],
    additionalProperties: false,
  },
  Message: obj({ message: str }),
  Ready: obj({
    status: { enum: ['ready', 'unavailable'] },
    role: { enum: ['all', 'web', 'worker'] },
    checks: obj({ database: bool, storage: bool, queue: bool }),
    failed: arrayOf({ enum: ['database', 'storage', 'queue'] }),
  }),
  Health: obj({ status: { enum: ['ok', 'degraded'] }, version: str, role: { enum: ['all', 'web', 'worker'] }, uptimeSeconds: int, checks: obj({ database: bool, queue: bool }) }),
  User: obj(
    {
      id: str,
      email: { type: 'string', format: 'email' },
      name: strOrNull,
      role: { enum: ['user', 'admin'] },
      isActive: bool,
      userType: { enum: ['credit', 'subscription', null] },
      credits: obj({ available: int, reserved: int }),
      conversionsCount: int,
      monthlyConversions: int,
      lastLogin: dateTimeOrNull,
      createdAt: dateTime,
      usageSummary: { type: 'object' },
      twoFactorEnabled: bool,
      twoFactorSetupRequired: { type: 'boolean', description: 'Nas respostas da própria sessão: ela só pode ativar a verificação em duas etapas.' },
    },
    ['id', 'email', 'role', 'isActive', 'credits', 'createdAt', 'twoFactorEnabled'],
  ),
  Session: obj({ token: str, expiresIn: int, user: ref('User') }),
  TwoFactorChallenge: obj({
    twoFactorRequired: { const: true },
    challenge: { type: 'string', description: 'Enviado com o código a /api/auth/login/2fa; vale alguns minutos, uma vez.' },
    expiresIn: int,
    message: str,
  }),
  SignIn: { oneOf: [ref('Session'), ref('TwoFactorChallenge')] },
  SessionInfo: obj({
    id: str,
    device: str,
    userAgent: strOrNull,
    address: strOrNull,
    createdAt: dateTime,
    lastUsedAt: dateTimeOrNull,
    expiresAt: dateTime,
    current: bool,
  }),
  TwoFactorStatus: obj({ enabled: bool, enabledAt: dateTimeOrNull, recoveryCodesLeft: int, requiredForAccount: bool }),
  TwoFactorSetup: obj({ secret: str, otpauthUrl: str, qrCode: { type: 'string', description: 'data:image/svg+xml;base64,…' } }),
  RecoveryCodes: obj({ message: str, recoveryCodes: { type: 'array', items: str, minItems: 10, maxItems: 10 } }),
  ApiTokenScope: { enum: [...API_TOKEN_SCOPES] },
  ApiToken: obj({
    id: str,
    name: str,
    prefix: { type: 'string', description: 'O início do token (aab_…), para reconhecê-lo.' },
    scopes: arrayOf(ref('ApiTokenScope')),
    createdAt: dateTime,
    lastUsedAt: dateTimeOrNull,
  }),
  CreatedApiToken: {
    allOf: [ref('ApiToken'), obj({ token: { type: 'string', pattern: '^aab_', description: 'O token inteiro; só aparece nesta resposta.' }, message: str })],
  },
  ConversionStatus: { enum: [...CONVERSION_STATUSES] },
  Conversion: obj(
    {
      id: str,
      conversionId: str,
      userId: str,
      fileName: str,
      fileSize: int,
      kind: { enum: [...CONVERSION_KINDS], description: 'apk-to-aab: um APK (ou conjunto de splits) virou AAB; aab-to-apks: um AAB enviado virou APK universal ou o conjunto de APKs de um aparelho (options.output "device-set").' },
      filename: { type: 'string', description: 'O nome do arquivo gerado: o AAB; o APK de aab-to-apks, ou o .apks do conjunto de um aparelho.' },
      status: ref('ConversionStatus'),
      progress: num,
      step: strOrNull,
      error: strOrNull,
      errorCode: strOrNull,
      createdAt: dateTime,
      completedAt: dateTimeOrNull,
      convertedSize: { type: ['integer', 'null'] },
      canDownload: bool,
      report: { type: ['object', 'null'], description: 'O relatório do motor (apk-to-aab): pacote, versões, SDKs, ABIs, tamanhos, avisos, estimativa por dispositivo, assinatura; play: o maior versionCode no Google Play, lido com a chave da conta.' },
      apks: { type: ['object', 'null'], description: 'aab-to-apks: os APKs gerados (pacote, versões, tamanhos, avisos; num conjunto, o caminho de cada APK e device, o perfil de aparelho) e a chave que os assinou (testKey: a chave de teste do aabify, nunca para o Google Play).' },
      queuePosition: { type: ['integer', 'null'] },
      estimatedTime: { type: ['number', 'null'] },
    },
    ['id', 'conversionId', 'fileName', 'fileSize', 'kind', 'filename', 'status', 'progress', 'createdAt', 'canDownload', 'report', 'apks'],
  ),
  ConversionStart: obj({ conversionId: str, fileName: str, fileSize: int, status: ref('ConversionStatus'), queuePosition: int, estimatedTime: num, message: str }, ['conversionId', 'fileName', 'fileSize', 'status', 'message']),
  ConversionHistory: obj({ conversions: arrayOf(ref('Conversion')), total: int, page: int, limit: int, totalPages: int, hasNextPage: bool, hasPreviousPage: bool }),
  ConversionLog: obj({ id: str, timestamp: dateTime, level: { enum: ['info', 'success', 'warning', 'error'] }, message: str, step: strOrNull }, ['id', 'timestamp', 'level', 'message']),
  ConversionLogs: obj({ conversionId: str, logs: arrayOf(ref('ConversionLog')), total: int }),
  Usage: obj({ hasActivePlan: bool, canConvert: bool, credits: int, planName: { type: ['string', 'null'] }, message: str }, ['hasActivePlan', 'canConvert', 'planName', 'message']),
  TestApk: obj(
    { conversionId: str, filename: str, fileSize: int, testKey: bool, certificateSha256: str, message: str, downloadUrl: str, expiresIn: int, expiresAt: str, qrCodePng: strOrNull },
    ['conversionId', 'filename', 'fileSize', 'testKey', 'certificateSha256', 'message', 'downloadUrl', 'expiresIn', 'expiresAt', 'qrCodePng'],
  ),
  DownloadLink: obj({ conversionId: str, downloadUrl: str, downloadLink: str, expiresIn: int }, ['conversionId', 'downloadUrl']),
  Keystore: obj({
    alias: str,
    format: { enum: ['PKCS12', 'JKS'] },
    keyAlgorithm: { enum: ['RSA', 'EC'] },
    keySize: int,
    subject: str,
    certificateSha1: str,
    certificateSha256: str,
    notAfter: dateTime,
    fileName: strOrNull,
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  Plan: obj(
    { id: str, name: str, description: strOrNull, type: { enum: ['credit', 'subscription'] }, price: num, priceCents: int, currency: str, credits: { type: ['integer', 'null'] }, features: arrayOf(str), isActive: bool, isPopular: bool },
    ['id', 'name', 'type', 'price', 'priceCents', 'currency', 'isActive'],
  ),
  Pagination: obj({ total: int, page: int, limit: int, pages: int }, ['total', 'page', 'limit']),
  PlanList: obj({ plans: arrayOf(ref('Plan')), pagination: ref('Pagination') }),
  PlanAnswer: obj({ success: bool, plan: ref('Plan') }),
  Purchase: obj({ id: str, status: str, planId: strOrNull, amount: num, createdAt: dateTime }, ['id', 'status']),
  PixPayment: obj({ id: str, purchaseId: str, status: str, amountCents: int, expiresAt: dateTime, pixCopyPaste: { type: 'string', description: 'PIX copia e cola (BR Code).' }, qrCodeBase64: str }, ['id', 'status', 'amountCents', 'expiresAt']),
  PixCreated: obj({ success: bool, message: str, reused: bool, payment: ref('PixPayment'), purchase: ref('Purchase') }),
  AnyObject: { type: 'object', description: 'Objeto JSON (os campos estão descritos no resumo da rota e em docs/*.md).' },
};

/** The error answers, by status: each is the Error shape with its usual codes. */
const ERROR_ANSWERS: Record<number, [string, string]> = {
  400: ['BadRequest', 'Dados inválidos (VALIDATION_ERROR com fields, INVALID_JSON, INVALID_OPTIONS …).'],
  401: ['Unauthorized', 'Sem token, token inválido, expirado ou revogado (TOKEN_MISSING, TOKEN_INVALID, TOKEN_EXPIRED …).'],
  402: ['PaymentRequired', 'Sem plano, sem créditos ou assinatura vencida (NO_PLAN, NO_CREDITS, PLAN_EXPIRED; details.planStatus, details.redirectTo).'],
  403: ['Forbidden', 'A credencial não pode fazer isto: papel errado (ADMIN_REQUIRED), token de API sem o escopo (TOKEN_SCOPE_MISSING) ou onde só vale uma sessão (SESSION_REQUIRED, ADMIN_NEEDS_SESSION), senha a confirmar (REAUTH_REQUIRED), verificação em duas etapas a ativar (TWO_FACTOR_SETUP_REQUIRED) …'],
  404: ['NotFound', 'Recurso inexistente ou de outro usuário.'],
  409: ['Conflict', 'O estado atual não permite a operação.'],
  410: ['Gone', 'Expirado (ex.: PIX vencido, link de download vencido).'],
  413: ['PayloadTooLarge', 'Arquivo ou corpo acima do limite (FILE_TOO_LARGE, PAYLOAD_TOO_LARGE).'],
  415: ['UnsupportedMediaType', 'Tipo de arquivo não aceito.'],
  422: ['Unprocessable', 'O arquivo ou o keystore não pôde ser processado (códigos do motor, ex.: NOT_A_ZIP, BAD_KEYSTORE).'],
  429: ['TooManyRequests', 'Limite de requisições (RATE_LIMIT); retryAfter e Retry-After dizem quando tentar de novo.'],
  500: ['InternalError', 'Erro interno (INTERNAL_ERROR); os detalhes ficam no log do servidor.'],
  502: ['BadGateway', 'O provedor de pagamento não respondeu como esperado.'],
  503: ['ServiceUnavailable', 'Serviço indisponível no momento.'],
};

export function errorResponseName(status: number): string {
  const entry = ERROR_ANSWERS[status];
  if (!entry) throw new Error(`no error answer for status ${status}: add it to ERROR_ANSWERS in openapi/components.ts`);
  return entry[0];
}

export const responses: Record<string, JsonSchema> = Object.fromEntries(
  Object.values(ERROR_ANSWERS).map(([name, description]) => [
    name,
    {
      description,
      content: { 'application/json': { schema: ref('Error') } },
      ...(name === 'TooManyRequests' ? { headers: { 'Retry-After': { description: 'Segundos até tentar de novo.', schema: int } } } : {}),
    },
  ]),
);

export const securitySchemes: Record<string, JsonSchema> = {
  sessionJwt: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Token de sessão de POST /api/auth/login (ou /auth/register, /setup/initialize): Authorization: Bearer <jwt>.',
  },
  apiToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'aab_…',
    description: 'Token de API pessoal (POST /api/auth/tokens), para a CLI e pipelines: Authorization: Bearer aab_…. Vale nas mesmas rotas que a sessão.',
  },
};
