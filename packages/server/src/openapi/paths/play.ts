/** Google Play publishing (docs/play.md): the account's service-account key and publications. */
import { PLAY_RELEASE_STATUSES, PUBLICATION_STATUSES, playCredentialsSchema, playTestSchema, publishRequestSchema } from '@aabify/shared';
import type { JsonSchema } from '../jsonSchema.js';
import { route } from '../route.js';

const str = { type: 'string' };
const strOrNull = { type: ['string', 'null'] };
const intOrNull = { type: ['integer', 'null'] };
const dateTime = { type: 'string', format: 'date-time' };
const dateTimeOrNull = { type: ['string', 'null'], format: 'date-time' };
const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({ type: 'object', properties, required });

const credentials = obj({ clientEmail: str, projectId: strOrNull, privateKeyId: strOrNull, createdAt: dateTime, updatedAt: dateTime, lastTestedAt: dateTimeOrNull, lastTestedPackage: strOrNull });
const publication = obj({
  id: str,
  conversionId: str,
  userId: str,
  packageName: str,
  track: str,
  releaseStatus: { enum: [...PLAY_RELEASE_STATUSES] },
  rolloutPercent: { type: ['number', 'null'] },
  releaseName: strOrNull,
  releaseNotes: { type: 'array', items: obj({ language: str, text: str }) },
  status: { enum: [...PUBLICATION_STATUSES] },
  progress: { type: 'integer' },
  step: strOrNull,
  versionCode: intOrNull,
  editId: strOrNull,
  playResponse: { type: ['object', 'null'] },
  error: strOrNull,
  errorCode: strOrNull,
  createdAt: dateTime,
  startedAt: dateTimeOrNull,
  completedAt: dateTimeOrNull,
});
const log = obj({ id: str, timestamp: dateTime, level: { enum: ['info', 'warning', 'error', 'success'] }, message: str, step: strOrNull });
const withCredentials = obj({ message: str, credentials });

export const playRoutes = [
  route('put', '/account/play-credentials', 'Google Play', 'Guarda (ou substitui) a chave da conta de serviço do Google Play, criptografada', {
    auth: 'user',
    body: playCredentialsSchema,
    answer: withCredentials,
    errors: [422],
    description: '`key` é o texto do arquivo JSON da chave. Nunca é devolvida: só o e-mail da conta de serviço, o projeto e o id da chave.',
  }),
  route('get', '/account/play-credentials', 'Google Play', 'O e-mail e o projeto da conta de serviço cadastrada (nunca a chave); `credentials: null` sem chave cadastrada', {
    auth: 'user', token: 'account:read',
    answer: obj({ credentials: { oneOf: [credentials, { type: 'null' }] } }),
  }),
  route('delete', '/account/play-credentials', 'Google Play', 'Remove a chave do Google Play da conta', { auth: 'user', answers: { 204: null }, errors: [404] }),
  route('post', '/account/play-credentials/test', 'Google Play', 'Testar conexão: obtém um token e abre e descarta uma edição do app', {
    auth: 'user', token: 'publications:write',
    body: playTestSchema,
    answer: withCredentials,
    errors: [404, 422, 502],
    rateLimited: true,
    description: '422 com o código PLAY_* do que o Google recusou (PLAY_AUTH_FAILED, PLAY_APP_NOT_FOUND, PLAY_PERMISSION_DENIED, PLAY_QUOTA_EXCEEDED…); 502 PLAY_UNAVAILABLE.',
  }),
  route('post', '/publications', 'Google Play', 'Publica o AAB de uma conversão concluída numa faixa do Google Play (job na fila)', {
    auth: 'user', token: 'publications:write',
    body: publishRequestSchema,
    answers: { 201: obj({ message: str, publication }) },
    errors: [404, 409],
    rateLimited: true,
    description: 'Acompanhe pelo evento socket.io `publication-update` ou por GET /publications/{id}. 409 PLAY_CREDENTIALS_REQUIRED, CONVERSION_NOT_PUBLISHABLE ou PUBLICATION_IN_PROGRESS.',
  }),
  route('get', '/publications', 'Google Play', 'As publicações de uma conversão, da mais nova à mais antiga', {
    auth: 'user', token: 'publications:read',
    query: { type: 'object', properties: { conversionId: str }, required: ['conversionId'] },
    answer: obj({ publications: { type: 'array', items: publication } }),
    errors: [404],
  }),
  route('get', '/publications/:id', 'Google Play', 'Uma publicação e seus registros (com a mensagem do próprio Google em caso de erro)', {
    auth: 'user', token: 'publications:read',
    answer: obj({ publication, logs: { type: 'array', items: log } }),
    errors: [404],
  }),
  route('get', '/admin/publications', 'Administração', 'As publicações no Google Play de todos os usuários', {
    auth: 'admin',
    query: {
      type: 'object',
      properties: { page: { type: 'integer', minimum: 1 }, limit: { type: 'integer', minimum: 1, maximum: 100 }, status: { enum: ['all', ...PUBLICATION_STATUSES] }, search: str },
    },
    answer: obj({ publications: { type: 'array', items: publication }, total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' }, totalPages: { type: 'integer' } }),
  }),
];
