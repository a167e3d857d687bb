/** E-mail: password recovery, address confirmation, preferences and the admins' outbox (docs/email.md). */
import { accountPreferencesSchema, adminEmailsQuerySchema, emailChangeConfirmSchema, emailChangeSchema, forgotPasswordSchema, profileSchema, resetPasswordSchema, verifyEmailSchema } from '@aabify/shared';
import { ref } from '../components.js';
import { route } from '../route.js';

const message = ref('Message');
const adminEmail = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    kind: { type: 'string' },
    to: { type: 'string' },
    subject: { type: 'string' },
    status: { enum: ['queued', 'sent', 'failed'] },
    attempts: { type: 'integer' },
    lastError: { type: ['string', 'null'] },
    userId: { type: ['string', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
    sentAt: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['id', 'kind', 'to', 'subject', 'status', 'attempts', 'createdAt'],
};

export const emailRoutes = [
  route('post', '/auth/forgot-password', 'Autenticação', 'Pede um link de nova senha por e-mail (a mesma resposta, exista ou não a conta)', {
    auth: 'none',
    body: forgotPasswordSchema,
    answer: { type: 'object', properties: { message: { type: 'string' }, emailDelivery: { type: 'boolean' } }, required: ['message', 'emailDelivery'] },
    rateLimited: true,
    description: 'Limitado por endereço do cliente e por e-mail. O link vale 1 hora e serve uma vez. Sem SMTP configurado, `emailDelivery` é false e a mensagem indica o contato do suporte (o pedido fica na caixa de saída e os administradores são avisados).',
  }),
  route('post', '/auth/reset-password', 'Autenticação', 'Define a nova senha com o token do link; encerra as sessões antigas e abre uma nova', {
    auth: 'none',
    body: resetPasswordSchema,
    answer: { allOf: [ref('SignIn'), message] },
    rateLimited: true,
    description: '400 RESET_LINK_INVALID para um link usado, vencido ou desconhecido. Numa conta com verificação em duas etapas, a resposta traz o desafio (twoFactorRequired) em vez da sessão: o código vai a /auth/login/2fa.',
  }),
  route('get', '/auth/reset-password/:token/status', 'Autenticação', 'Se um link de nova senha ainda vale (sem usá-lo)', {
    auth: 'none',
    answer: { type: 'object', properties: { valid: { type: 'boolean' } }, required: ['valid'] },
    errors: [400],
    rateLimited: true,
    description: 'A página do link pergunta ao abrir: `valid: false` para um link usado, vencido ou desconhecido, antes de a pessoa digitar a senha; o link continua sem uso. Nunca diz de quem é a conta; conta no mesmo limite que a troca de senha. 400 VALIDATION_ERROR para um token malformado.',
  }),
  route('post', '/auth/verify-email', 'Autenticação', 'Confirma o endereço de e-mail com o token do link', {
    auth: 'none',
    body: verifyEmailSchema,
    answer: { anyOf: [message, { allOf: [ref('SignIn'), message] }] },
    rateLimited: true,
    errors: [403],
    description:
      'O token sozinho confirma só com a sessão (Bearer) da própria conta. Sem ela, envie `password` (a senha da conta: entra nela) ' +
      'ou `newPassword` (cria uma nova senha: encerra as sessões e remove tokens de API, links de download, keystore e chave do ' +
      'Google Play feitos antes da confirmação). 403 VERIFY_SIGN_IN_REQUIRED (`details.email`) quando falta a prova; o link ' +
      'continua valendo. 400 WRONG_PASSWORD, 400 VERIFY_LINK_INVALID para um link usado, vencido ou desconhecido.',
  }),
  route('get', '/auth/email-status', 'Autenticação', 'Se o endereço está confirmado e se a confirmação é exigida', {
    auth: 'user', token: 'account:read',
    answer: { type: 'object', properties: { emailVerified: { type: 'boolean' }, verificationRequired: { type: 'boolean' } }, required: ['emailVerified', 'verificationRequired'] },
  }),
  route('post', '/auth/resend-verification', 'Autenticação', 'Reenvia o e-mail de confirmação do endereço (503 EMAIL_DELIVERY_UNAVAILABLE sem envio de e-mails configurado)', { auth: 'user', answer: message, errors: [503], rateLimited: true }),
  route('patch', '/account/preferences', 'Conta', 'Os e-mails opcionais que a conta quer receber', {
    auth: 'user',
    body: accountPreferencesSchema,
    answer: { allOf: [message, { type: 'object', properties: { user: ref('User') }, required: ['user'] }] },
    description: 'Cada chave é opcional (pelo menos uma): `notifyConversions` (conversão concluída), `notifyConversionFailures` (conversão com falha), `notifyProductNews` (novidades do produto, sem propaganda). E-mails de segurança (senha, acessos novos, links pedidos) não têm chave: sempre são enviados.',
  }),
  route('patch', '/account/profile', 'Conta', 'O nome da conta (Conta › Perfil)', {
    auth: 'user',
    body: profileSchema,
    answer: { allOf: [message, { type: 'object', properties: { user: ref('User') }, required: ['user'] }] },
  }),
  route('post', '/account/email-change', 'Conta', 'Pede a troca do e-mail da conta: um link vai para o novo endereço', {
    auth: 'user',
    body: emailChangeSchema,
    answer: message,
    errors: [503],
    rateLimited: true,
    description: 'Só com uma sessão que confirmou a senha nos últimos 10 minutos (403 REAUTH_REQUIRED). O e-mail da conta só muda quando o link enviado ao novo endereço é aberto (vale 24 horas); o endereço atual é avisado. 400 EMAIL_UNCHANGED; 503 EMAIL_DELIVERY_UNAVAILABLE sem envio de e-mails configurado.',
  }),
  route('post', '/account/email-change/confirm', 'Conta', 'Confirma a troca de e-mail com o token do link', {
    auth: 'none',
    body: emailChangeConfirmSchema,
    answer: { allOf: [message, { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] }] },
    errors: [409],
    rateLimited: true,
    description: '400 EMAIL_CHANGE_LINK_INVALID para um link usado, vencido ou desconhecido; 409 EMAIL_TAKEN quando outra conta passou a usar o endereço.',
  }),
  route('get', '/admin/emails', 'Administração', 'Os e-mails enviados e na caixa de saída, paginados', {
    auth: 'admin',
    rateLimited: true,
    query: adminEmailsQuerySchema,
    answer: {
      type: 'object',
      properties: {
        emails: { type: 'array', items: adminEmail },
        pagination: { type: 'object' },
        transport: { enum: ['smtp', 'outbox'] },
        linkBase: { type: 'string' },
        publicUrlSet: { type: 'boolean' },
      },
      required: ['emails', 'pagination', 'transport', 'linkBase', 'publicUrlSet'],
    },
  }),
  route('get', '/admin/emails/:id', 'Administração', 'Um e-mail como foi enviado (links de uso único ocultos)', {
    auth: 'admin',
    rateLimited: true,
    answer: { allOf: [adminEmail, { type: 'object', properties: { html: { type: 'string' }, text: { type: 'string' } }, required: ['html', 'text'] }] },
    errors: [404],
  }),
  route('post', '/admin/emails/:id/resend', 'Administração', 'Coloca de novo na fila um e-mail cujo envio falhou (registrado na auditoria)', {
    auth: 'admin',
    rateLimited: true,
    answer: { type: 'object', properties: { message: { type: 'string' }, email: adminEmail }, required: ['message', 'email'] },
    errors: [404, 409],
    description: '409 EMAIL_NOT_RESENDABLE para um e-mail que não falhou; 409 EMAIL_LINK_NOT_RESENDABLE para um que levava um link de uso único (não é guardado depois da falha).',
  }),
];
