/** Health, first-run setup, sign-in, API tokens and the account's keystore. */
import { changePasswordSchema, createApiTokenSchema, keystoreUploadSchema, loginSchema, registerSchema, setupSchema } from '@aabify/shared';
import { ref } from '../components.js';
import { route } from '../route.js';

const sessionAnswer = ref('Session');

export const accountRoutes = [
  route('get', '/health', 'Sistema', 'Saúde do servidor: banco, fila, versão (503 quando degradado)', {
    auth: 'none',
    answers: { 200: ref('Health'), 503: ref('Health') },
  }),
  route('get', '/ready', 'Sistema', 'Prontidão para orquestradores: banco, armazenamento e fila alcançáveis (503 com o que falhou)', {
    auth: 'none',
    answers: { 200: ref('Ready'), 503: ref('Ready') },
  }),
  route('get', '/openapi.json', 'Sistema', 'Este documento OpenAPI 3.1', { auth: 'none', answer: { type: 'object' } }),
  route('get', '/docs', 'Sistema', 'A referência navegável deste documento (página HTML do painel)', {
    auth: 'none',
    answer: { media: 'text/html', description: 'Página HTML' },
    errors: [503],
  }),
  route('get', '/setup/status', 'Configuração inicial', 'Se o primeiro administrador ainda precisa ser criado', {
    auth: 'none',
    answer: { type: 'object', properties: { requiresSetup: { type: 'boolean' } }, required: ['requiresSetup'] },
  }),
  route('post', '/setup/initialize', 'Configuração inicial', 'Cria o primeiro administrador (403 SETUP_ALREADY_DONE depois)', {
    auth: 'none',
    body: setupSchema,
    answers: { 201: { allOf: [sessionAnswer, { type: 'object', properties: { success: { const: true }, message: { type: 'string' } } }] } },
    errors: [403, 409],
  }),
  route('post', '/auth/register', 'Autenticação', 'Cria uma conta de usuário (depois, entre com /auth/login)', {
    auth: 'none',
    body: registerSchema,
    answers: { 201: { type: 'object', properties: { message: { type: 'string' }, email: { type: 'string', format: 'email' } }, required: ['message', 'email'] } },
    rateLimited: true,
    description: 'Um endereço já cadastrado recebe a mesma resposta (nada revela que a conta existe); o dono é avisado por e-mail.',
  }),
  route('post', '/auth/login', 'Autenticação', 'Entra com email e senha e recebe um token de sessão (JWT)', { auth: 'none', body: loginSchema, answer: sessionAnswer, errors: [401, 403], rateLimited: true }),
  route('get', '/auth/verify', 'Autenticação', 'Confere o token e devolve o usuário', { auth: 'user', answer: { type: 'object', properties: { valid: { type: 'boolean' }, user: ref('User') }, required: ['user'] } }),
  route('get', '/auth/me', 'Autenticação', 'O usuário do token', { auth: 'user', answer: ref('User') }),
  route('patch', '/auth/change-password', 'Autenticação', 'Troca a senha (e devolve uma sessão nova)', { auth: 'user', body: changePasswordSchema, answer: { allOf: [sessionAnswer, ref('Message')] }, rateLimited: true }),
  route('post', '/auth/logout', 'Autenticação', 'Sai desta sessão: o token para de valer e as conexões ao vivo dela fecham', {
    auth: 'user',
    answer: ref('Message'),
    description: '400 LOGOUT_NEEDS_SESSION com um token de API (revogue-o em /auth/tokens/{id}). As outras sessões continuam.',
  }),
  route('post', '/auth/logout-all', 'Autenticação', 'Sai de todas as sessões do usuário, esta inclusive (os tokens de API continuam)', {
    auth: 'user',
    answer: ref('Message'),
    description: '400 LOGOUT_NEEDS_SESSION com um token de API.',
  }),
  route('post', '/auth/tokens', 'Tokens de API', 'Cria um token de API pessoal (aab_…), mostrado só nesta resposta', {
    auth: 'user',
    body: createApiTokenSchema,
    answers: { 201: ref('CreatedApiToken') },
    errors: [403, 409],
    description:
      'Só com o token de sessão (403 SESSION_REQUIRED com um token de API) e, onde há envio de e-mail (SMTP_URL), com o e-mail da conta confirmado (403 EMAIL_NOT_VERIFIED). Até 20 tokens por usuário (409 API_TOKEN_LIMIT).',
  }),
  route('get', '/auth/tokens', 'Tokens de API', 'Os tokens de API do usuário (sem os segredos)', {
    auth: 'user',
    answer: { type: 'object', properties: { tokens: { type: 'array', items: ref('ApiToken') } }, required: ['tokens'] },
  }),
  route('delete', '/auth/tokens/:id', 'Tokens de API', 'Revoga um token de API', { auth: 'user', answers: { 204: null }, errors: [404] }),
  route('put', '/account/keystore', 'Chave de upload', 'Guarda (ou substitui) o keystore de upload da conta, criptografado', {
    auth: 'user',
    body: keystoreUploadSchema,
    answer: { type: 'object', properties: { message: { type: 'string' }, keystore: ref('Keystore') }, required: ['message', 'keystore'] },
    errors: [422],
  }),
  route('get', '/account/keystore', 'Chave de upload', 'Os dados públicos do keystore da conta (nunca a chave)', {
    auth: 'user',
    answer: { type: 'object', properties: { keystore: ref('Keystore') }, required: ['keystore'] },
    errors: [404],
  }),
  route('delete', '/account/keystore', 'Chave de upload', 'Remove o keystore da conta', { auth: 'user', answers: { 204: null }, errors: [404] }),
];
