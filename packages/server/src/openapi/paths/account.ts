/** Health, first-run setup, sign-in, API tokens and the account's keystore. */
import {
  changePasswordSchema,
  createApiTokenSchema,
  keystoreUploadSchema,
  loginSchema,
  loginTwoFactorSchema,
  reauthSchema,
  registerSchema,
  setupSchema,
  twoFactorDisableSchema,
  twoFactorEnableSchema,
} from '@aabify/shared';
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
  route('post', '/auth/register', 'Autenticação', 'Cria uma conta de usuário e já entra nela', {
    auth: 'none',
    body: registerSchema,
    answers: {
      201: {
        oneOf: [
          { allOf: [sessionAnswer, { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }] },
          { type: 'object', properties: { message: { type: 'string' }, email: { type: 'string', format: 'email' } }, required: ['message', 'email'] },
        ],
      },
    },
    errors: [409],
    rateLimited: true,
    description:
      'Responde a sessão da conta nova (`token`, `expiresIn`, `user`). Um endereço já cadastrado recebe 409 `EMAIL_TAKEN` com `details.loginPath` e `details.forgotPasswordPath`. Onde o operador exige e-mail confirmado (`accounts.requireVerifiedEmail`), não há sessão no cadastro: conta nova e endereço já cadastrado recebem a mesma resposta `{ message, email }` (nada revela que a conta existe) e o dono é avisado por e-mail.',
  }),
  route('post', '/auth/login', 'Autenticação', 'Entra com email e senha e recebe um token de sessão (JWT)', {
    auth: 'none',
    body: loginSchema,
    answer: ref('SignIn'),
    errors: [401, 403],
    rateLimited: true,
    description: 'Numa conta com verificação em duas etapas, a resposta não tem sessão: traz `twoFactorRequired` e o `challenge` a enviar com o código a /auth/login/2fa.',
  }),
  route('post', '/auth/login/2fa', 'Autenticação', 'Segunda etapa do login: o desafio e o código do aplicativo (ou um código de recuperação)', {
    auth: 'none',
    body: loginTwoFactorSchema,
    answer: sessionAnswer,
    errors: [401],
    rateLimited: true,
    description: '401 TWO_FACTOR_CODE_INVALID (código errado ou já usado), 401 TWO_FACTOR_CHALLENGE_INVALID (desafio vencido ou já usado). Os limites de tentativas são os do login.',
  }),
  route('post', '/auth/reauth', 'Autenticação', 'Confirma a senha (ou um código) nesta sessão: as alterações sensíveis ficam liberadas por 10 minutos', {
    auth: 'user',
    body: reauthSchema,
    answer: { type: 'object', properties: { message: { type: 'string' }, verifiedUntil: { type: 'string', format: 'date-time' } }, required: ['message', 'verifiedUntil'] },
    rateLimited: true,
    description: 'A resposta ao 403 REAUTH_REQUIRED. 400 WRONG_PASSWORD ou TWO_FACTOR_CODE_INVALID.',
  }),
  route('get', '/auth/sessions', 'Sessões', 'As sessões ativas da conta (dispositivo, endereço, início, último uso)', {
    auth: 'user',
    answer: { type: 'object', properties: { sessions: { type: 'array', items: ref('SessionInfo') } }, required: ['sessions'] },
  }),
  route('delete', '/auth/sessions/:id', 'Sessões', 'Encerra uma sessão: o token dela para de valer e as conexões ao vivo fecham', { auth: 'user', answers: { 204: null }, errors: [404] }),
  route('get', '/auth/2fa', 'Verificação em duas etapas', 'Se a verificação em duas etapas está ativa e quantos códigos de recuperação restam', { auth: 'user', answer: ref('TwoFactorStatus') }),
  route('post', '/auth/2fa/setup', 'Verificação em duas etapas', 'Um novo segredo para o aplicativo autenticador (QR code e texto); só vale depois de /auth/2fa/enable', {
    auth: 'user',
    answer: ref('TwoFactorSetup'),
    errors: [409],
    description: '403 REAUTH_REQUIRED sem senha confirmada nos últimos 10 minutos; 409 TWO_FACTOR_ALREADY_ENABLED.',
  }),
  route('post', '/auth/2fa/enable', 'Verificação em duas etapas', 'Ativa com o primeiro código do aplicativo e devolve os 10 códigos de recuperação (só nesta resposta)', {
    auth: 'user',
    body: twoFactorEnableSchema,
    answer: ref('RecoveryCodes'),
    errors: [409],
  }),
  route('post', '/auth/2fa/recovery-codes', 'Verificação em duas etapas', 'Gera 10 novos códigos de recuperação; os anteriores deixam de valer', {
    auth: 'user',
    answer: ref('RecoveryCodes'),
    errors: [409],
    description: '403 REAUTH_REQUIRED sem senha confirmada nos últimos 10 minutos.',
  }),
  route('post', '/auth/2fa/disable', 'Verificação em duas etapas', 'Desativa com a senha e um código', {
    auth: 'user',
    body: twoFactorDisableSchema,
    answer: ref('Message'),
    errors: [409],
    rateLimited: true,
  }),
  route('get', '/auth/verify', 'Autenticação', 'Confere o token e devolve o usuário', { auth: 'user', token: 'any', answer: { type: 'object', properties: { valid: { type: 'boolean' }, user: ref('User') }, required: ['user'] } }),
  route('get', '/auth/me', 'Autenticação', 'O usuário do token', { auth: 'user', token: 'any', answer: ref('User') }),
  route('patch', '/auth/change-password', 'Autenticação', 'Troca a senha (e devolve uma sessão nova)', { auth: 'user', body: changePasswordSchema, answer: { allOf: [sessionAnswer, ref('Message')] }, rateLimited: true }),
  route('post', '/auth/logout', 'Autenticação', 'Sai desta sessão: o token para de valer e as conexões ao vivo dela fecham', {
    auth: 'user', token: 'any',
    answer: ref('Message'),
    description: '400 LOGOUT_NEEDS_SESSION com um token de API (revogue-o em /auth/tokens/{id}). As outras sessões continuam.',
  }),
  route('post', '/auth/logout-all', 'Autenticação', 'Sai de todas as sessões do usuário, esta inclusive (os tokens de API continuam)', {
    auth: 'user', token: 'any',
    answer: ref('Message'),
    description: '400 LOGOUT_NEEDS_SESSION com um token de API.',
  }),
  route('post', '/auth/tokens', 'Tokens de API', 'Cria um token de API pessoal (aab_…), mostrado só nesta resposta', {
    auth: 'user',
    body: createApiTokenSchema,
    answers: { 201: ref('CreatedApiToken') },
    errors: [403, 409],
    description:
      'Só com uma sessão que confirmou a senha nos últimos 10 minutos (403 SESSION_REQUIRED com um token de API, 403 REAUTH_REQUIRED numa sessão mais antiga) e, onde há envio de e-mail (SMTP_URL), com o e-mail da conta confirmado (403 EMAIL_NOT_VERIFIED). `scopes` (read, conversions, downloads, publishing) diz o que o token pode fazer; sem ele, read, conversions e downloads. Até 20 tokens por usuário (409 API_TOKEN_LIMIT).',
  }),
  route('get', '/auth/tokens', 'Tokens de API', 'Os tokens de API do usuário (sem os segredos)', {
    auth: 'user', token: 'account:read',
    answer: { type: 'object', properties: { tokens: { type: 'array', items: ref('ApiToken') } }, required: ['tokens'] },
  }),
  route('delete', '/auth/tokens/:id', 'Tokens de API', 'Revoga um token de API', {
    auth: 'user',
    token: 'any',
    answers: { 204: null },
    errors: [404],
    description: 'Um token de API só revoga a si mesmo (403 TOKEN_REVOKES_ONLY_ITSELF para outro).',
  }),
  route('put', '/account/keystore', 'Chave de upload', 'Guarda (ou substitui) o keystore de upload da conta, criptografado', {
    auth: 'user',
    body: keystoreUploadSchema,
    answer: { type: 'object', properties: { message: { type: 'string' }, keystore: ref('Keystore') }, required: ['message', 'keystore'] },
    errors: [422],
  }),
  route('get', '/account/keystore', 'Chave de upload', 'Os dados públicos do keystore da conta (nunca a chave); `keystore: null` sem keystore cadastrado', {
    auth: 'user', token: 'account:read',
    answer: { type: 'object', properties: { keystore: { oneOf: [ref('Keystore'), { type: 'null' }] } }, required: ['keystore'] },
  }),
  route('delete', '/account/keystore', 'Chave de upload', 'Remove o keystore da conta', { auth: 'user', answers: { 204: null }, errors: [404] }),
];
