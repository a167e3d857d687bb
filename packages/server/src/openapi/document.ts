/**
 * The API contract: an OpenAPI 3.1 document built from the route table (openapi/paths/*.ts) and
 * the shared yup schemas the routes validate with. Served at /api/openapi.json, browsable at
 * /api/docs; test/openapi.test.ts checks it against the Express router and real answers.
 */
import { API_TOKEN_SCOPES, API_TOKEN_SCOPE_LABELS, scopesGranting, type ApiTokenScope } from '@aabify/shared';
import { errorResponseName, responses, schemas, securitySchemes } from './components.js';
import { isYupSchema, jsonSchemaOf, queryParametersOf, type JsonSchema } from './jsonSchema.js';
import type { Answer, RouteDoc } from './route.js';
import { accountRoutes } from './paths/account.js';
import { conversionRoutes } from './paths/conversions.js';
import { planRoutes } from './paths/plans.js';
import { adminRoutes } from './paths/admin.js';
import { emailRoutes } from './paths/email.js';
import { playRoutes } from './paths/play.js';
import { auditRoutes } from './paths/audit.js';
import { legalRoutes } from './paths/legal.js';
import { fiscalRoutes } from './paths/fiscal.js';

/** Every documented route, in the order the reference shows them. */
export const API_ROUTES: readonly RouteDoc[] = [...accountRoutes, ...emailRoutes, ...conversionRoutes, ...planRoutes, ...adminRoutes, ...auditRoutes, ...playRoutes, ...legalRoutes, ...fiscalRoutes];

/** `/conversion/status/:id` → `/api/conversion/status/{id}`. */
export function openApiPath(expressPath: string): string {
  return `/api${expressPath}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const SECURITY = [{ sessionJwt: [] }, { apiToken: [] }];
const SESSION_ONLY = [{ sessionJwt: [] }];

/** The scopes that open a route to API tokens (none: sessions only). */
export function tokenScopesOf(r: Pick<RouteDoc, 'auth' | 'token'>): ApiTokenScope[] {
  if (r.auth === 'none' || r.auth === 'admin' || !r.token) return [];
  return r.token === 'any' ? [...API_TOKEN_SCOPES] : scopesGranting(r.token);
}

function tokenSentence(r: RouteDoc): string {
  if (r.auth === 'none') return '';
  const scopes = tokenScopesOf(r);
  if (scopes.length === 0) return r.auth === 'admin' ? 'Tokens de API nunca (403 ADMIN_NEEDS_SESSION). ' : 'Só com sessão: tokens de API recebem 403 SESSION_REQUIRED. ';
  if (r.token === 'any') return 'Tokens de API: qualquer escopo. ';
  return `Tokens de API: escopo ${scopes.map((s) => `${s} (${API_TOKEN_SCOPE_LABELS[s].label})`).join(' ou ')} (403 TOKEN_SCOPE_MISSING sem ele). `;
}

function answerContent(answer: Answer, status: number): JsonSchema {
  if (answer === null) return { description: status === 204 ? 'Sem corpo' : 'Resposta vazia' };
  if ('media' in answer && (typeof answer.media === 'string' || Array.isArray(answer.media))) {
    const a = answer as { media: string | string[]; schema?: JsonSchema; description?: string };
    const medias = typeof a.media === 'string' ? [a.media] : a.media;
    const content = Object.fromEntries(medias.map((m) => [m, { schema: a.schema ?? { type: 'string', contentMediaType: m } }]));
    return { description: a.description ?? medias.join(', '), content };
  }
  return { description: 'Resposta JSON', content: { 'application/json': { schema: answer } } };
}

function errorStatuses(r: RouteDoc): number[] {
  const statuses = new Set(r.errors ?? []);
  if (r.body || r.query || r.multipart) statuses.add(400);
  if (r.auth !== 'none') statuses.add(401);
  // Every authenticated route may refuse a credential: a token's scopes, a session limited to
  // two-factor enrolment, an admin's route.
  if (r.auth !== 'none') statuses.add(403);
  if (r.rateLimited) statuses.add(429);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

function operation(r: RouteDoc): JsonSchema {
  const parameters: JsonSchema[] = [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  if (r.query) parameters.push(...queryParametersOf(r.query));
  if (r.auth === 'token-or-query' && !parameters.some((p) => p.name === 'token')) {
    parameters.push({ name: 'token', in: 'query', required: false, schema: { type: 'string' }, description: 'Token (sessão, API ou download) quando não há cabeçalho Authorization.' });
  }
  const answers: Record<string, JsonSchema> = {};
  for (const [status, answer] of Object.entries(r.answers ?? { 200: r.answer ?? null })) answers[status] = answerContent(answer, Number(status));
  for (const status of errorStatuses(r)) if (!(String(status) in answers)) answers[status] = { $ref: `#/components/responses/${errorResponseName(status)}` };
  const requestBody = r.multipart
    ? { required: true, content: { 'multipart/form-data': { schema: r.multipart } } }
    : r.body
      ? { required: true, content: { 'application/json': { schema: isYupSchema(r.body) ? jsonSchemaOf(r.body) : r.body } } }
      : undefined;
  const who = `${r.auth === 'admin' ? 'Só administradores. ' : ''}${tokenSentence(r)}`;
  const scopes = tokenScopesOf(r);
  return {
    tags: [r.tag],
    summary: r.summary,
    operationId: `${r.method}${openApiPath(r.path).replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    ...(r.description || who ? { description: `${who}${r.description ?? ''}`.trim() } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: answers,
    security: r.auth === 'none' ? [] : r.auth === 'token-or-query' ? [...SECURITY, {}] : scopes.length > 0 ? SECURITY : SESSION_ONLY,
    ...(r.auth === 'none' ? {} : { 'x-api-token-scopes': scopes }),
  };
}

export function buildOpenApiDocument(version: string, routes: readonly RouteDoc[] = API_ROUTES): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const r of routes) {
    const path = openApiPath(r.path);
    paths[path] ??= {};
    if (paths[path][r.method]) throw new Error(`route documented twice: ${r.method.toUpperCase()} ${path}`);
    paths[path][r.method] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'aabify API',
      version,
      summary: 'APK → AAB: contas, planos e pagamentos PIX, conversões e administração.',
      description:
        'Toda rota fica sob /api. Erros têm uma forma só: `{ message, code, details?, fields?, retryAfter? }`, com a mensagem em pt-BR (schema Error). ' +
        'Autenticação: `Authorization: Bearer <token>`, com o token de sessão (JWT) de /api/auth/login ou um token de API pessoal `aab_…` (/api/auth/tokens). ' +
        'Um token de API só abre as rotas dos escopos escolhidos ao criá-lo (`x-api-token-scopes` de cada operação: read, conversions, downloads, publishing); nunca as de administrador nem as que alteram a conta.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'Este servidor' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: { schemas, responses, securitySchemes },
  };
}

let cached: { version: string; document: JsonSchema } | undefined;

/** The document of this server (built once per process). */
export function openApiDocument(version: string): JsonSchema {
  if (cached?.version !== version) cached = { version, document: buildOpenApiDocument(version) };
  return cached.document;
}
