/** Termos de Uso and Política de Privacidade: public reading, the account's acceptance, admins' versions; the support contact. */
import { acceptLegalSchema, deleteAccountSchema, publishLegalSchema } from '@aabify/shared';
import { route } from '../route.js';

const str = { type: 'string' };
const int = { type: 'integer' };
const versions = { type: 'object', properties: { terms: int, privacy: int }, required: ['terms', 'privacy'] };
const document = {
  type: 'object',
  properties: {
    kind: { enum: ['terms', 'privacy'] },
    title: str,
    version: int,
    body: { type: 'string', description: 'Texto puro; parágrafos separados por uma linha em branco.' },
    publishedAt: { type: ['string', 'null'], format: 'date-time' },
    dataProtectionOfficer: {
      type: 'object',
      description: 'Só na Política de Privacidade: o encarregado (configurações legal.dpoName e legal.dpoEmail).',
      properties: { name: { type: ['string', 'null'] }, email: { type: ['string', 'null'] } },
      required: ['name', 'email'],
    },
  },
  required: ['kind', 'title', 'version', 'body', 'publishedAt'],
};
const pendingNote = 'Aberta enquanto a aceitação da versão atual estiver pendente; as demais rotas respondem 403 LEGAL_ACCEPTANCE_REQUIRED a uma sessão de cliente nesse estado.';

const dataExport = {
  type: 'object',
  properties: {
    id: str,
    status: { enum: ['pending', 'ready', 'failed', 'expired'] },
    requestedAt: { type: 'string', format: 'date-time' },
    readyAt: { type: ['string', 'null'], format: 'date-time' },
    expiresAt: { type: ['string', 'null'], format: 'date-time', description: 'Quando o arquivo é apagado (exportações prontas).' },
    size: { type: ['integer', 'null'] },
    filename: str,
  },
  required: ['id', 'status', 'requestedAt', 'readyAt', 'expiresAt', 'size', 'filename'],
};
const exportZip = { media: 'application/zip', description: 'O zip com os dados da conta (aceita Range)' };

export const legalRoutes = [
  route('get', '/account/exports', 'Conta', 'As últimas exportações dos dados da conta (Meus dados), a mais recente primeiro', {
    auth: 'user',
    answer: { type: 'object', properties: { exports: { type: 'array', items: dataExport } }, required: ['exports'] },
    description: pendingNote,
  }),
  route('post', '/account/exports', 'Conta', 'Pede uma exportação de tudo o que o serviço guarda sobre a conta', {
    auth: 'user',
    answers: { 202: { type: 'object', properties: { export: dataExport, message: str }, required: ['export', 'message'] } },
    errors: [409, 429],
    description: `O zip (JSON do perfil, compras, conversões e seus logs, e-mails, sessões, tokens e chaves sem segredos) é gerado em segundo plano; um e-mail avisa quando fica pronto, e ele é guardado por 7 dias. 409 EXPORT_IN_PROGRESS enquanto outra está em preparação; 429 EXPORT_LIMIT depois de 3 em 24 horas. ${pendingNote}`,
  }),
  route('get', '/account/exports/:id/file', 'Conta', 'Baixa o zip de uma exportação pronta', {
    auth: 'user',
    answers: { 200: exportZip, 206: exportZip },
    errors: [404, 409, 410],
    description: `De outra conta: 404. 409 EXPORT_NOT_READY ou EXPORT_FAILED; 410 EXPORT_EXPIRED. ${pendingNote}`,
  }),
  route('delete', '/account', 'Conta', 'Exclui a própria conta (senha e, com a verificação em duas etapas, o código)', {
    auth: 'user',
    body: deleteAccountSchema,
    answer: { type: 'object', properties: { message: str, fiscalRecord: str }, required: ['message', 'fiscalRecord'] },
    rateLimited: true,
    description: 'Conversões, arquivos, chaves, tokens e sessões são apagados na hora; o registro mínimo das compras fica guardado à parte (obrigação fiscal). 400 WRONG_PASSWORD, TWO_FACTOR_CODE_REQUIRED ou TWO_FACTOR_CODE_INVALID com o campo; 403 ADMIN_CANNOT_DELETE_SELF.',
    errors: [403],
  }),
  route('get', '/admin/dashboard/warnings', 'Administração', 'O que impede a loja de vender ou de alcançar os clientes, cada aviso com o que fazer', {
    auth: 'admin',
    rateLimited: true,
    answer: {
      type: 'object',
      properties: {
        warnings: {
          type: 'array',
          items: { type: 'object', properties: { code: str, title: str, problem: str, action: str, link: { type: ['string', 'null'] } }, required: ['code', 'title', 'problem', 'action', 'link'] },
        },
      },
      required: ['warnings'],
    },
    description: 'Códigos: NO_BUYABLE_PLAN, NO_SMTP, NO_PUBLIC_URL.',
  }),
  route('get', '/support', 'Ajuda', 'O contato de suporte do serviço (público): e-mail e link de WhatsApp, quando configurados', {
    auth: 'none',
    answer: { type: 'object', properties: { email: { type: ['string', 'null'] }, whatsapp: { type: ['string', 'null'] } }, required: ['email', 'whatsapp'] },
  }),
  route('get', '/legal/terms', 'Termos e privacidade', 'Os Termos de Uso na versão atual (público)', { auth: 'none', answer: document }),
  route('get', '/legal/privacy', 'Termos e privacidade', 'A Política de Privacidade na versão atual, com o encarregado (público)', { auth: 'none', answer: document }),
  route('get', '/legal/acceptance', 'Termos e privacidade', 'Se a conta precisa aceitar a versão atual dos documentos', {
    auth: 'user',
    token: 'any',
    answer: {
      type: 'object',
      properties: { required: { type: 'boolean' }, current: versions, accepted: { type: 'object', properties: { terms: { type: ['integer', 'null'] }, privacy: { type: ['integer', 'null'] } } } },
      required: ['required', 'current', 'accepted'],
    },
    description: pendingNote,
  }),
  route('post', '/legal/acceptance', 'Termos e privacidade', 'Aceita a versão atual dos Termos de Uso e da Política de Privacidade', {
    auth: 'user',
    body: acceptLegalSchema,
    answer: { type: 'object', properties: { message: str, accepted: versions }, required: ['message', 'accepted'] },
    errors: [409],
    description: `Registra versões, data e endereço. 409 LEGAL_VERSION_OUTDATED quando as versões enviadas não são as atuais. ${pendingNote}`,
  }),
  route('get', '/admin/legal/:kind', 'Administração: termos e privacidade', 'Um documento (terms ou privacy): a versão atual e todas as versões', {
    auth: 'admin',
    rateLimited: true,
    answer: { type: 'object', properties: { document, versions: { type: 'array', items: { type: 'object' } } }, required: ['document', 'versions'] },
    errors: [404],
  }),
  route('get', '/admin/legal/:kind/versions/:version', 'Administração: termos e privacidade', 'O texto de uma versão', { auth: 'admin', rateLimited: true, answer: document, errors: [404] }),
  route('post', '/admin/legal/:kind', 'Administração: termos e privacidade', 'Publica uma nova versão (os clientes aceitam de novo)', {
    auth: 'admin',
    rateLimited: true,
    body: publishLegalSchema,
    answers: { 201: { type: 'object', properties: { version: int, message: str }, required: ['version', 'message'] } },
    errors: [404, 409],
  }),
];
