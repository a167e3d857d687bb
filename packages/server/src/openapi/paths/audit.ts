/** The audit trail: Admin › Auditoria (list, detail, CSV) and an account's own security log. */
import { AUDIT_EXPORT_TRUNCATED_HEADER, accountActivityQuerySchema, adminAuditFilterSchema, adminAuditQuerySchema } from '@aabify/shared';
import { ref } from '../components.js';
import { route } from '../route.js';

const str = { type: 'string' };
const strOrNull = { type: ['string', 'null'] };
const objOrNull = { type: ['object', 'null'] };
const auditEvent = {
  type: 'object',
  properties: {
    id: str,
    at: { type: 'string', format: 'date-time' },
    action: { type: 'string', description: 'Código da ação (ex.: user.credits_changed, auth.sign_in_failed).' },
    actor: { type: 'object', properties: { id: strOrNull, email: strOrNull, role: { enum: ['user', 'admin', null] } }, required: ['id', 'email', 'role'] },
    via: { enum: ['session', 'api_token', null] },
    apiTokenId: strOrNull,
    address: strOrNull,
    userAgent: strOrNull,
    target: { type: ['object', 'null'], properties: { type: str, id: strOrNull, label: strOrNull }, required: ['type', 'id', 'label'] },
    accountId: strOrNull,
  },
  required: ['id', 'at', 'action', 'actor', 'via', 'apiTokenId', 'address', 'userAgent', 'target', 'accountId'],
};
const activity = {
  type: 'object',
  properties: {
    id: str,
    at: { type: 'string', format: 'date-time' },
    action: str,
    label: str,
    byAdmin: { type: 'boolean' },
    address: strOrNull,
    device: strOrNull,
  },
  required: ['id', 'at', 'action', 'label', 'byAdmin', 'address', 'device'],
};
const csv = {
  media: 'text/csv',
  description: `CSV (;) dos eventos filtrados, os mais recentes primeiro; células que uma planilha executaria como fórmula começam com apóstrofo. Cabeçalho ${AUDIT_EXPORT_TRUNCATED_HEADER}: true quando eventos mais antigos ficaram de fora.`,
};

export const auditRoutes = [
  route('get', '/admin/audit', 'Administração: auditoria', 'Os eventos da auditoria, os mais recentes primeiro, com filtros', {
    auth: 'admin',
    rateLimited: true,
    query: adminAuditQuerySchema,
    answer: { type: 'object', properties: { events: { type: 'array', items: auditEvent }, pagination: ref('Pagination') }, required: ['events', 'pagination'] },
    description: 'Nenhuma rota altera ou apaga eventos; só a retenção (configuração audit.retentionDays) remove os mais antigos.',
  }),
  route('get', '/admin/audit/export', 'Administração: auditoria', 'Os eventos filtrados em CSV (a exportação também é registrada)', { auth: 'admin', rateLimited: true, query: adminAuditFilterSchema, answer: csv }),
  route('get', '/admin/audit/export.csv', 'Administração: auditoria', 'Os eventos filtrados em CSV (a exportação também é registrada)', { auth: 'admin', rateLimited: true, query: adminAuditFilterSchema, answer: csv }),
  route('get', '/admin/audit/:id', 'Administração: auditoria', 'Um evento com o antes e o depois do que mudou (segredos mascarados)', {
    auth: 'admin',
    rateLimited: true,
    answer: { allOf: [auditEvent, { type: 'object', properties: { before: objOrNull, after: objOrNull, details: objOrNull }, required: ['before', 'after', 'details'] }] },
    errors: [404],
  }),
  route('get', '/account/activity', 'Conta', 'A atividade de segurança da própria conta (entradas, senhas, tokens, chaves), a mais recente primeiro', {
    auth: 'user',
    query: accountActivityQuerySchema,
    answer: { type: 'object', properties: { events: { type: 'array', items: activity }, pagination: ref('Pagination') }, required: ['events', 'pagination'] },
    description: 'Só a conta de quem chama. O que um administrador fez aparece como tal (byAdmin), sem o endereço nem o navegador dele.',
  }),
];
