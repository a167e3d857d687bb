/** Conversions: upload, follow, logs, download. */
import { historyQuerySchema } from '@aabify/shared';
import { ref } from '../components.js';
import { route } from '../route.js';

const upload = {
  type: 'object',
  properties: {
    apk: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' }, description: 'O APK, um conjunto de splits (.apks, .xapk, .apkm, .zip), vários APKs do mesmo app e arquivos .obb, repetindo o campo; ou um único .aab, que vira APK universal ou o conjunto de APKs de um aparelho (conversão aab-to-apks).' },
    options: { type: 'string', description: 'Opções da conversão em JSON (ex.: {"sign":true,"splits":{"abi":true}}; versionCode: um número ou "play", uma acima da do Google Play). Para um .aab valem só sign e o que gerar: output "universal" (padrão, o APK universal) ou "device-set" com device, o id de um perfil de GET /conversion/device-profiles (o conjunto .apks daquele aparelho; perfil desconhecido: 400 UNKNOWN_DEVICE_PROFILE). output e device com um APK: 400 DEVICE_SET_NOT_FOR_APK.' },
  },
  required: ['apk'],
};
const started = { allOf: [ref('ConversionStart'), { type: 'object', properties: { conversion: ref('Conversion') }, required: ['conversion'] }] };
const aab = { media: ['application/octet-stream', 'application/vnd.android.package-archive'], description: 'O AAB (aceita Range e If-Range para continuar um download); numa conversão aab-to-apks, o APK (application/vnd.android.package-archive) ou o conjunto .apks de um aparelho (application/octet-stream)' };

export const conversionRoutes = [
  route('get', '/conversion/limits', 'Conversões', 'Limites de envio (tamanho máximo do arquivo)', { auth: 'user', token: 'conversions:read', answer: { type: 'object', properties: { maxFileSize: { type: 'integer' } }, required: ['maxFileSize'] } }),
  route('get', '/conversion/device-profiles', 'Conversões', 'Perfis de aparelho para o conjunto de APKs (.apks) de um AAB (opção device)', {
    auth: 'user', token: 'conversions:read',
    answer: { type: 'object', properties: { profiles: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, label: { type: 'string' } }, required: ['id', 'label'] } } }, required: ['profiles'] },
  }),
  route('post', '/conversion/convert', 'Conversões', 'Envia o APK (multipart, em fluxo) e põe a conversão na fila', {
    auth: 'user', token: 'conversions:write',
    multipart: upload,
    answers: { 201: started },
    errors: [400, 402, 413, 415, 422],
    rateLimited: true,
  }),
  route('post', '/conversion/upload', 'Conversões', 'Envia o APK sem iniciar a conversão (inicie com /conversion/start/{id})', {
    auth: 'user', token: 'conversions:write',
    multipart: upload,
    answers: { 201: started },
    // 409: the user's uploads waiting for /start are at their count or byte cap.
    errors: [400, 402, 409, 413, 415, 422],
    rateLimited: true,
  }),
  route('post', '/conversion/convert/bulk', 'Conversões', 'Administrador: várias conversões num envio (campo apks)', {
    auth: 'admin',
    multipart: { type: 'object', properties: { apks: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
    answers: { 201: ref('AnyObject') },
    errors: [400, 413],
    rateLimited: true,
  }),
  route('post', '/conversion/start/:id', 'Conversões', 'Inicia uma conversão enviada com /conversion/upload', { auth: 'user', token: 'conversions:write', answer: ref('ConversionStart'), errors: [402, 404, 409, 429] }),
  route('get', '/conversion/status/:id', 'Conversões', 'A conversão: status, progresso, fila, relatório', { auth: 'user', token: 'conversions:read', answer: ref('Conversion'), errors: [404] }),
  route('get', '/conversion/history', 'Conversões', 'As conversões do usuário, paginadas', { auth: 'user', token: 'conversions:read', query: historyQuerySchema, answer: ref('ConversionHistory') }),
  route('get', '/conversion/usage', 'Conversões', 'O plano e o que ele ainda permite', { auth: 'user', token: 'conversions:read', answer: ref('Usage') }),
  route('get', '/conversion/logs/:id', 'Conversões', 'Os logs da conversão', { auth: 'user', token: 'conversions:read', answer: ref('ConversionLogs'), errors: [404] }),
  route('delete', '/conversion/logs/:id', 'Conversões', 'Apaga os logs da conversão', {
    auth: 'user', token: 'conversions:write',
    answer: { type: 'object', properties: { message: { type: 'string' }, conversionId: { type: 'string' }, deleted: { type: 'integer' } }, required: ['message', 'conversionId', 'deleted'] },
    errors: [404],
  }),
  route('post', '/conversion/cancel/:id', 'Conversões', 'Cancela uma conversão pendente, na fila ou em processamento (o crédito volta)', {
    auth: 'user', token: 'conversions:write',
    answer: { type: 'object', properties: { message: { type: 'string' }, conversion: ref('Conversion') }, required: ['message', 'conversion'] },
    errors: [404, 409],
  }),
  route('post', '/conversion/generate-download-link/:id', 'Downloads', 'Um link temporário de download do AAB', { auth: 'user', token: 'downloads', answer: ref('DownloadLink'), errors: [403, 404, 409, 410, 429] }),
  route('post', '/conversion/test-apk/:id', 'Downloads', 'Testar no celular: o APK universal do AAB (assinado com a chave de upload da conta, ou com a chave de teste), com um link temporário e o QR code dele', {
    auth: 'user', token: 'downloads', answer: ref('TestApk'),
    // 422: the engine refused the bundle (coded); 503: the worker ran out of time or memory.
    errors: [403, 404, 409, 422, 429, 503],
  }),
  route('get', '/conversion/download/:id', 'Downloads', 'Baixa o AAB (ou o APK de uma conversão aab-to-apks)', { auth: 'user', token: 'downloads', answers: { 200: aab, 206: aab }, errors: [403, 404, 409, 410] }),
  route('get', '/conversion/temp-download/:id', 'Downloads', 'Baixa o AAB (ou o APK de uma conversão aab-to-apks) com o token do link (?token=) ou o bearer', {
    auth: 'token-or-query', token: 'downloads',
    answers: { 200: aab, 206: aab },
    // 429: too many unknown tokens from this address (the bad-credential limit).
    errors: [403, 404, 409, 410, 429],
  }),
  route('post', '/conversion/updates/:id/ticket', 'Conversões', 'Um ticket de uso único (60 s) para abrir o fluxo de eventos com ?token= sem pôr o token longo na URL', {
    auth: 'user', token: 'conversions:read',
    answers: { 201: { type: 'object', properties: { ticket: { type: 'string', pattern: '^sse_' }, conversionId: { type: 'string' }, expiresIn: { type: 'integer' }, expiresAt: { type: 'string', format: 'date-time' } }, required: ['ticket', 'conversionId', 'expiresIn', 'expiresAt'] } },
    errors: [404, 429],
  }),
  route('get', '/conversion/updates/:id', 'Conversões', 'Eventos ao vivo da conversão (server-sent events), com bearer ou ?token=', {
    auth: 'token-or-query', token: 'conversions:read',
    answer: { media: 'text/event-stream', description: 'Eventos conversion:progress, conversion:log, conversion:completed …' },
    // 429 TOO_MANY_LIVE_CONNECTIONS: the user holds every live connection this process allows.
    errors: [404, 429],
  }),
  route('post', '/download/generate-download-token/:conversionId', 'Downloads', 'Um token de download do AAB', { auth: 'user', token: 'downloads', answer: ref('AnyObject'), errors: [403, 404, 409, 410, 429] }),
  route('get', '/download/file/:token', 'Downloads', 'Baixa o AAB (ou o APK de teste, ou o APK de uma conversão aab-to-apks) pelo token de download', { auth: 'none', answers: { 200: aab, 206: aab }, errors: [404, 409, 410, 429] }),
  route('get', '/download/available', 'Downloads', 'As conversões com AAB disponível para download', {
    auth: 'user', token: 'downloads',
    answer: { type: 'object', properties: { downloads: { type: 'array', items: { type: 'object' } }, total: { type: 'integer' } }, required: ['downloads', 'total'] },
  }),
];
