/**
 * The rules of conversions that the server and its clients share: statuses, limits, pt-BR
 * messages, upload file names, the history's sort fields, the real-time channel's names and the
 * stage labels. The JSON the server sends is in conversionJson.ts, the request schemas in
 * conversionSchemas.ts. No Node-only code: the dashboard imports this too, and the CLI at start
 * (no yup here).
 */
import { countOf } from './numbers.js';
import { apksFileName, isDeviceSet } from './apksOutput.js';
import type { PlayVersionCodes } from './playChecklist.js';

export const CONVERSION_STATUSES = ['pending', 'queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type ConversionStatus = (typeof CONVERSION_STATUSES)[number];
/** Statuses that still move; cancel is allowed in these. */
export const ACTIVE_CONVERSION_STATUSES = ['pending', 'queued', 'processing'] as const satisfies readonly ConversionStatus[];
/** Statuses a conversion ends in: nothing changes after them. */
export const FINAL_CONVERSION_STATUSES = ['completed', 'failed', 'cancelled'] as const satisfies readonly ConversionStatus[];

export function isConversionStatus(value: unknown): value is ConversionStatus {
  return typeof value === 'string' && (CONVERSION_STATUSES as readonly string[]).includes(value);
}

export function isActiveConversionStatus(status: string | undefined): status is (typeof ACTIVE_CONVERSION_STATUSES)[number] {
  return status !== undefined && (ACTIVE_CONVERSION_STATUSES as readonly string[]).includes(status);
}

export function isFinalConversionStatus(status: string | undefined): status is (typeof FINAL_CONVERSION_STATUSES)[number] {
  return status !== undefined && (FINAL_CONVERSION_STATUSES as readonly string[]).includes(status);
}

const MB = 1024 * 1024;

export const CONVERSION_LIMITS = {
  /** Default of the upload.maxFileSize setting (bytes). */
  defaultMaxFileSize: 100 * MB,
  minMaxFileSize: MB,
  maxMaxFileSize: 500 * MB,
  /** upload.maxFileSize 0: no size limit (big games with OBBs; the disk is the limit). */
  unlimitedMaxFileSize: 0,
  /** Asset-pack rules per conversion (Play allows at most 100 asset packs per app). */
  assetPacksMax: 100,
  /** Characters of one asset-pack glob (the engine matches globs in time linear in both lengths). */
  assetPackGlobMaxLength: 512,
  /** Files of one conversion (a split set given as separate APKs, plus OBBs). */
  uploadMaxFiles: 20,
  /** Files per bulk conversion. */
  bulkMaxFiles: 10,
  /** Log entries kept and served per conversion. */
  logsPerConversion: 200,
  /** Default global worker limit (setting conversions.maxConcurrent). */
  defaultMaxConcurrent: 3,
  /** Estimate used only while no conversion has completed yet. */
  defaultAverageProcessingTimeMs: 120_000,
  /** Download links and tokens are valid this long. */
  downloadTokenTtlSeconds: 3600,
  /** A stream ticket (the `?token=` of the event stream) opens one stream within this time. */
  streamTicketTtlSeconds: 60,
  /** Unused, unexpired stream tickets a user may hold at once. */
  streamTicketsPerUser: 20,
  /**
   * Unexpired download tokens a user may hold at once (each lives downloadTokenTtlSeconds):
   * far above what downloading by hand needs, low enough that the table stays small.
   */
  downloadTokensPerUser: 100,
  /** Default of conversions.maxActivePerUser: one user's conversions queued or processing at once. */
  defaultMaxActivePerUser: 10,
  /** retryAfter of TOO_MANY_ACTIVE_CONVERSIONS: when to look again for a finished one. */
  activeConversionsRetryAfterSeconds: 30,
  /**
   * Live connections (sockets and event streams together) a user may hold open on one server
   * process. A dashboard tab holds one socket and the CLI one stream per conversion it follows.
   */
  liveConnectionsPerUser: 20,
  /**
   * Sockets from one client address (IPv6: its /64) a server process holds at once, whatever the
   * accounts: generous, since many customers may share one address (a carrier's NAT).
   */
  liveConnectionsPerAddress: 100,
  /** Files are kept this many days by default (setting conversions.retentionDays). */
  defaultRetentionDays: 7,
  historyDefaultPage: 1,
  historyDefaultLimit: 10,
  historyMaxLimit: 100,
  /** Uploads not started (POST /conversion/upload) are removed after this long, file and row. */
  pendingUploadMaxAgeMs: 60 * 60 * 1000,
  /** Default of upload.maxPendingUploads: stored, not-yet-started uploads per user. */
  defaultMaxPendingUploads: 5,
  /** upload.maxPendingBytes 0 = automatic: this many times upload.maxFileSize … */
  pendingBytesFactor: 2,
  /** … or this when upload.maxFileSize is 0 (no limit). */
  pendingBytesWhenUnlimited: 1024 * MB,
  searchMaxLength: 200,
  versionCodeMax: 2_100_000_000,
  versionNameMax: 256,
} as const;

/** '100MB' for 104857600: the number shown in the size-limit message follows the setting. */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / MB;
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1).replace('.', ',')}MB`;
}

export const CONVERSION_MESSAGES = {
  apkExtension: 'O arquivo deve ter extensão .apk',
  uploadExtension: 'Cada arquivo deve ser .apk, .apks, .xapk, .apkm, .zip (conjunto de splits), .obb ou .aab (para gerar o APK).',
  /** An .aab upload whose content is no Android App Bundle (NOT_AN_AAB). */
  notAnAab: 'O arquivo .aab não é um Android App Bundle válido: falta o manifesto do módulo base (base/manifest/AndroidManifest.xml).',
  /** An .aab sent with other files (AAB_NOT_ALONE). */
  aabNotAlone: 'Envie o arquivo .aab sozinho: a conversão AAB → APK recebe um único bundle.',
  /** The log line of `versionCode: "play"`: what Play has, and the versionCode the AAB gets. */
  versionCodeFromPlay: (codes: PlayVersionCodes | undefined, next: number | undefined): string =>
    next !== undefined
      ? `Maior versionCode no Google Play: ${next - 1}; o AAB sai com versionCode ${next}.`
      : codes?.reached
        ? 'O app ainda não tem versões no Google Play: o AAB mantém o versionCode do APK.'
        : codes
          ? `Não foi possível consultar o Google Play (${codes.message}): o AAB mantém o versionCode do APK.`
          : 'A chave do Google Play da conta não tem acesso a este app: o AAB mantém o versionCode do APK.',
  /** Options of APK → AAB sent with an .aab (INVALID_OPTIONS). */
  optionNotForAab: (name: string) => `A opção ${name} não se aplica à conversão AAB → APK (só "sign", "output" e "device" valem para ela).`,
  /** options.output of an AAB → APK conversion. */
  apksOutput: 'output deve ser "universal" (o APK universal) ou "device-set" (o conjunto de APKs para um aparelho).',
  /** UNKNOWN_DEVICE_PROFILE: a device set without a known profile (`known`: the profiles' ids). */
  unknownDeviceProfile: (known: readonly string[]) => `Escolha um perfil de aparelho conhecido para o conjunto de APKs (opção device): ${known.join(', ')}.`,
  deviceNeedsDeviceSet: 'A opção device só vale com output "device-set" (o conjunto de APKs para um aparelho).',
  /** DEVICE_SET_NOT_FOR_APK: output/device sent with an APK or a split set. */
  deviceSetNotForApk: 'O conjunto de APKs para um aparelho (opções output e device) só vale para um .aab enviado sozinho; um APK ou conjunto de splits vira AAB.',
  /** Log lines of a device set's run. */
  deviceSetStarted: (label: string) => `Gerando o conjunto de APKs para o aparelho ${label}.`,
  deviceSetBuilt: (label: string, paths: readonly string[]) => `Conjunto para o aparelho ${label}: ${countOf(paths.length, 'APK', 'APKs')} (${paths.join(', ')}).`,
  onlyObb: 'Envie o APK (ou o conjunto de APKs) junto com os arquivos .obb.',
  tooManyUploadFiles: 'No máximo 20 arquivos por conversão.',
  fileTooLarge: (maxBytes: number) => `O arquivo excede o limite de ${formatMegabytes(maxBytes)}`,
  noFile: 'Nenhum arquivo enviado. Envie o APK no campo "apk".',
  emptyFile: 'O arquivo enviado está vazio.',
  notAZip: 'O arquivo não é um APK válido (não é um arquivo ZIP).',
  tooManyFiles: 'Máximo de 10 arquivos por vez',
  noFilesSelected: 'Selecione pelo menos um arquivo APK',
  optionsNotJson: 'As opções devem ser um JSON válido.',
  unknownOption: (path: string) => `Opção desconhecida: ${path}`,
  assetDelivery: 'A entrega deve ser install-time, fast-follow ou on-demand.',
  assetPackName: 'O nome do pacote de assets deve começar por letra e ter só letras, números e _ (até 50).',
  assetPackGlob: 'Informe o padrão (glob) dos assets do pacote, com até 512 caracteres.',
  assetPacksTooMany: 'No máximo 100 pacotes de assets por conversão.',
  optionsInvalid: 'Opções de conversão inválidas.',
  notFound: 'Conversão não encontrada',
  notFoundOrUnauthorized: 'Conversão não encontrada ou não autorizada',
  notEnoughCredits: 'Você não possui créditos suficientes para fazer esta conversão.',
  cannotConvert: 'Limite mensal atingido ou assinatura expirada.',
  rateLimited: 'Rate limit excedido',
  started: 'Conversão iniciada com sucesso',
  uploaded: 'Arquivo enviado. Inicie a conversão em até 1 hora; depois disso o envio é descartado.',
  pendingUploadsLimit: (max: number) =>
    `Você já tem ${countOf(max, 'arquivo enviado', 'arquivos enviados')} aguardando o início da conversão. Inicie ou cancele um deles antes de enviar outro.`,
  pendingBytesLimit: (maxBytes: number) =>
    `Seus arquivos enviados e ainda não convertidos passariam de ${formatMegabytes(maxBytes)}. Inicie ou cancele um deles antes de enviar outro.`,
  /** TOO_MANY_ACTIVE_CONVERSIONS (429): the user's queued and processing conversions fill conversions.maxActivePerUser. */
  tooManyActiveConversions: (max: number) =>
    `Você já tem ${countOf(max, 'conversão', 'conversões')} na fila ou em processamento, o máximo permitido por vez. Aguarde uma delas terminar (ou cancele uma) antes de enviar outra.`,
  notPending: 'A conversão já foi iniciada ou terminou.',
  cannotCancel: 'Só é possível cancelar conversões pendentes, na fila ou em processamento.',
  cancelled: 'Conversão cancelada',
  logsCleared: 'Logs removidos',
  notDownloadable: 'O arquivo convertido não está disponível para download.',
  /** An admin opening a customer's file while support.adminDownloads is off. */
  adminDownloadNotAllowed: 'O download de arquivos de clientes está desativado para administradores (Configurações › Segurança).',
  downloadExpired: 'O link de download expirou. Gere um novo link.',
  downloadNotFound: 'Link de download inválido.',
  /** TOO_MANY_DOWNLOAD_LINKS (429): CONVERSION_LIMITS.downloadTokensPerUser unexpired links. */
  tooManyDownloadLinks:
    `Você gerou links de download demais na última hora (no máximo ${CONVERSION_LIMITS.downloadTokensPerUser} válidos ao mesmo tempo). Use um link já gerado ou aguarde alguns minutos e tente de novo.`,
  tokenMissing: 'Token não encontrado',
  streamTicketRequired:
    'O token de acesso não pode ir na URL. Peça um ticket de transmissão (POST /api/conversion/updates/{id}/ticket) e use-o em ?token=, ou envie o token no cabeçalho Authorization.',
  streamTicketInvalid: 'Ticket de transmissão inválido ou já usado. Peça um novo ticket.',
  streamTicketExpired: 'Ticket de transmissão expirado. Peça um novo ticket.',
  tooManyStreamTickets: 'Tickets de transmissão demais em aberto. Aguarde um minuto e tente de novo.',
  /** TOO_MANY_LIVE_CONNECTIONS (no "token" or "auth" here: the dashboard would take it for a sign-out). */
  tooManyConnectionsFromAddress:
    `Conexões em tempo real demais a partir do seu endereço de rede (no máximo ${CONVERSION_LIMITS.liveConnectionsPerAddress} por vez). Feche outras abas do aabify e tente de novo em instantes.`,
  tooManyLiveConnections:
    `Conexões em tempo real demais abertas nesta conta (no máximo ${CONVERSION_LIMITS.liveConnectionsPerUser} por vez). Feche outras abas do aabify ou acompanhamentos da CLI e tente de novo.`,
  bulkDone: (ok: number, failed: number) => `${countOf(ok, 'conversão iniciada', 'conversões iniciadas')}${failed ? `, ${failed} com erro` : ''}`,
  genericFailure: 'Ocorreu um erro durante o processamento do arquivo',
  workerCrashed: 'O processo de conversão foi interrompido repetidamente; a conversão foi abortada.',
  /** CONVERSION_TIMEOUT: the job ran past `conversions.maxDurationSeconds` and its worker was stopped. */
  timedOut: (seconds: number) =>
    `A conversão passou do tempo máximo de ${seconds % 60 === 0 ? countOf(seconds / 60, 'minuto', 'minutos') : countOf(seconds, 'segundo', 'segundos')} e foi interrompida; nenhum crédito foi cobrado.`,
  /** WORKER_OUT_OF_MEMORY: the worker reached its heap limit. */
  outOfMemory: 'A conversão excedeu o limite de memória do conversor e foi interrompida; nenhum crédito foi cobrado.',
  internal: 'Erro interno do conversor.',
  requeued: 'Servidor reiniciando: a conversão voltou para a fila e continuará em seguida.',
  resumed: 'Conversão retomada após falha do processo.',
  uploadAborted: 'O envio do arquivo foi interrompido.',
} as const;

// ---- options -------------------------------------------------------------------------

/** How Play delivers an asset pack. */
export const ASSET_DELIVERIES = ['install-time', 'fast-follow', 'on-demand'] as const;

export function hasApkExtension(fileName: string): boolean {
  return /\.apk$/i.test(fileName);
}

/** What one conversion's upload takes: APKs, split sets (.apks, .xapk, .apkm, .zip) and OBB files; or one .aab (AAB → APK). */
export const UPLOAD_EXTENSIONS = ['.apk', '.apks', '.xapk', '.apkm', '.zip', '.obb', '.aab'] as const;

export function hasUploadExtension(fileName: string): boolean {
  const lower = fileName.toLowerCase();
  return UPLOAD_EXTENSIONS.some((e) => lower.endsWith(e));
}

export function isObbFileName(fileName: string): boolean {
  return /\.obb$/i.test(fileName);
}

/** 'app.apk' → 'app.aab', also for a split set ('app.apks', '.xapk', '.apkm', '.zip'); 'converted.aab' without a name. */
export function aabFileName(fileName: string | null | undefined): string {
  if (!fileName) return 'converted.aab';
  return /\.(apk|apks|xapk|apkm|zip)$/i.test(fileName) ? fileName.replace(/\.(apk|apks|xapk|apkm|zip)$/i, '.aab') : `${fileName}.aab`;
}

// ---- conversion kinds ------------------------------------------------------------------

/**
 * What a conversion makes: an AAB from an APK or split set (the first kind, and every conversion
 * made before the second existed), or installable APKs from an uploaded AAB (docs/apks.md).
 */
export const CONVERSION_KINDS = ['apk-to-aab', 'aab-to-apks'] as const;
export type ConversionKind = (typeof CONVERSION_KINDS)[number];

/** pt-BR names of the kinds, as the history, the conversion page and Admin › Conversões show them. */
export const CONVERSION_KIND_LABELS: Record<ConversionKind, string> = {
  'apk-to-aab': 'APK → AAB',
  'aab-to-apks': 'AAB → APK',
};

export function isConversionKind(value: unknown): value is ConversionKind {
  return typeof value === 'string' && (CONVERSION_KINDS as readonly string[]).includes(value);
}

export function isAabFileName(fileName: string): boolean {
  return /\.aab$/i.test(fileName);
}

/** 'Meu App.aab' → 'Meu App.apk' (accents kept); 'app.apk' without a name. */
export function apkFileName(fileName: string | null | undefined): string {
  const base = (fileName ?? '').replace(/\.aab$/i, '');
  return `${base || 'app'}.apk`;
}

/**
 * The name a conversion's output is downloaded under: the AAB of an APK; the APK of an AAB, or its
 * device set (`.apks`) when its options ask for one (apksOutput.ts).
 */
export function outputFileName(conversion: { kind: ConversionKind; fileName: string | null | undefined; options?: { output?: string } | null }): string {
  if (conversion.kind !== 'aab-to-apks') return aabFileName(conversion.fileName);
  return isDeviceSet(conversion.options) ? apksFileName(conversion.fileName) : apkFileName(conversion.fileName);
}

// ---- history query -------------------------------------------------------------------

export const HISTORY_SORT_FIELDS = ['createdAt', 'updatedAt', 'completedAt', 'fileName', 'fileSize', 'status'] as const;
export type HistorySortField = (typeof HISTORY_SORT_FIELDS)[number];

/** The levels of a conversion's log entries. */
export const CONVERSION_LOG_LEVELS = ['info', 'success', 'warning', 'error'] as const;
export type ConversionLogLevel = (typeof CONVERSION_LOG_LEVELS)[number];

// ---- real-time -----------------------------------------------------------------------

export const CONVERSION_UPDATE_TYPES = ['progress', 'queue_position', 'status_change', 'completed', 'error', 'log'] as const;
export type ConversionUpdateType = (typeof CONVERSION_UPDATE_TYPES)[number];

/** Socket event names (docs/conversions.md). */
export const SOCKET_EVENTS = {
  autoSubscribe: 'auto-subscribe-active-conversions',
  activeConversions: 'active-conversions',
  subscribe: 'subscribe-conversion',
  unsubscribe: 'unsubscribe',
  conversionCreated: 'conversion-created',
  stats: 'get_conversion_stats',
  statsResponse: 'conversion_stats_response',
  downloadLink: 'generate_download_link',
  downloadLinkResponse: 'download_link_response',
  error: 'error',
  authError: 'auth_error',
} as const;

export function conversionChannel(conversionId: string): string {
  return `conversion:${conversionId}`;
}

/** pt-BR label of an engine stage, for progress messages and logs. */
export const CONVERSION_STEP_LABELS: Record<string, string> = {
  upload: 'Envio',
  queue: 'Fila',
  reading: 'Lendo o APK',
  manifest: 'Convertendo o AndroidManifest.xml',
  resources: 'Convertendo os recursos',
  validating: 'Validando o bundle',
  writing: 'Gravando o AAB',
  done: 'Finalizando',
  storing: 'Armazenando o AAB',
};

/** The short pt-BR tag of a log line's stage ('[leitura]'), never the engine's own name. */
const CONVERSION_STEP_TAGS: Record<string, string> = {
  upload: 'envio',
  queue: 'fila',
  reading: 'leitura',
  manifest: 'manifesto',
  resources: 'recursos',
  validating: 'validação',
  writing: 'gravação',
  storing: 'armazenamento',
  done: 'conclusão',
  report: 'relatório',
};

export function conversionStepTag(step: string): string {
  return CONVERSION_STEP_TAGS[step] ?? 'etapa';
}

/**
 * Failures of the service rather than of the file: sending the same file again may work. Any
 * other coded failure (a corrupt APK, a split without its base, a limit of the engine) fails
 * again the same way; an uncoded one is given the benefit of the doubt.
 */
const TRANSIENT_CONVERSION_ERRORS: ReadonlySet<string> = new Set(['INTERNAL', 'IO_ERROR', 'WORKER_CRASHED', 'CONVERSION_TIMEOUT', 'WORKER_OUT_OF_MEMORY', 'ABORTED']);

export function retryMayHelp(errorCode: string | null | undefined): boolean {
  return !errorCode || TRANSIENT_CONVERSION_ERRORS.has(errorCode);
}
