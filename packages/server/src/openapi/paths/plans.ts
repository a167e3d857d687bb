/** Plans (public list, the user's plan) and purchases: PIX, hosted checkouts (card, boleto), automatic renewals. */
import { checkoutSchema, pageQuerySchema, planDuplicateSchema, planFilterQuerySchema, planInputSchema, sandboxChargeSchema, sandboxPaySchema } from '@aabify/shared';
import { ref } from '../components.js';
import { route } from '../route.js';

const any = ref('AnyObject');
const pix = ref('PixCreated');

export const planRoutes = [
  route('get', '/plans/public', 'Planos', 'Os planos ativos à venda (sem login)', {
    auth: 'none',
    answer: { type: 'object', properties: { success: { type: 'boolean' }, plans: { type: 'array', items: ref('Plan') } }, required: ['plans'] },
    rateLimited: true,
  }),
  route('get', '/plans', 'Planos', 'Planos: ativos para usuários; com filtros para administradores', { auth: 'user', token: 'account:read', query: planFilterQuerySchema, answer: ref('PlanList'), rateLimited: true }),
  route('get', '/plans/current', 'Planos', 'O plano do usuário, créditos e assinatura', { auth: 'user', token: 'account:read', answer: any, rateLimited: true }),
  route('get', '/plans/can-convert', 'Planos', 'Se o usuário pode converter agora, e por quê', {
    auth: 'user', token: 'account:read',
    answer: { type: 'object', properties: { canConvert: { type: 'boolean' }, status: { type: 'string' }, message: { type: 'string' } }, required: ['canConvert', 'status', 'message'] },
    rateLimited: true,
  }),
  route('get', '/plans/usage-history', 'Planos', 'Os planos aplicados e estornados do usuário', { auth: 'user', token: 'account:read', query: pageQuerySchema, answer: any, rateLimited: true }),
  route('post', '/plans', 'Planos', 'Administrador: cria um plano', { auth: 'admin', body: planInputSchema, answers: { 201: ref('PlanAnswer') }, errors: [409], rateLimited: true }),
  route('get', '/plans/:id', 'Planos', 'Um plano', { auth: 'user', token: 'account:read', answer: ref('PlanAnswer'), errors: [404], rateLimited: true }),
  route('patch', '/plans/:id', 'Planos', 'Administrador: altera um plano', { auth: 'admin', body: { type: 'object' }, answer: ref('PlanAnswer'), errors: [400, 404, 409], rateLimited: true }),
  route('delete', '/plans/:id', 'Planos', 'Administrador: remove o plano (ou o desativa, se já foi vendido)', { auth: 'admin', answer: any, errors: [404], rateLimited: true }),
  route('get', '/plans/:id/stats', 'Planos', 'Administrador: vendas e receita do plano', { auth: 'admin', answer: any, errors: [404], rateLimited: true }),
  route('post', '/plans/:id/duplicate', 'Planos', 'Administrador: duplica o plano', { auth: 'admin', body: planDuplicateSchema, answers: { 201: ref('PlanAnswer') }, errors: [404, 409], rateLimited: true }),

  route('get', '/payments/config', 'Pagamentos', 'O provedor de pagamento ativo (mercadopago, stripe ou sandbox), o PIX e, por moeda, como um plano pode ser pago', {
    auth: 'none',
    answer: {
      type: 'object',
      properties: { provider: { enum: ['mercadopago', 'stripe', 'sandbox'] }, sandbox: { type: 'boolean' }, currency: { type: 'string' }, routes: { type: 'object' } },
      required: ['provider', 'sandbox', 'currency', 'routes'],
    },
    rateLimited: true,
  }),
  route('post', '/payments/stripe/webhook', 'Pagamentos', 'Eventos do Stripe (assinatura Stripe-Signature conferida; o objeto é relido no Stripe)', {
    auth: 'none',
    body: { type: 'object' },
    answer: { type: 'object', properties: { received: { type: 'boolean' }, processed: { type: 'boolean' } }, required: ['received', 'processed'] },
    errors: [400, 404],
    rateLimited: true,
  }),
  route('post', '/payments/checkout/:planId', 'Pagamentos', 'Cria o checkout do provedor (cartão ou boleto) ou, com renew, a renovação automática de uma assinatura', {
    auth: 'user',
    body: checkoutSchema,
    answers: { 201: { type: 'object', properties: { checkoutUrl: { type: 'string' }, purchase: { type: 'object' }, renewal: { type: ['object', 'null'] } }, required: ['checkoutUrl', 'purchase'] } },
    errors: [400, 404, 503],
    rateLimited: true,
  }),
  route('get', '/payments/renewals', 'Pagamentos', 'As renovações automáticas do usuário', { auth: 'user', token: 'account:read', answer: any, rateLimited: true }),
  route('post', '/payments/renewals/:id/cancel', 'Pagamentos', 'Cancelar renovação: o provedor deixa de cobrar; o período pago continua', { auth: 'user', answer: any, errors: [404, 409, 502], rateLimited: true }),
  route('post', '/payments/renewals/:id/simulate-charge', 'Pagamentos', 'Sandbox: simula a cobrança do próximo período (aprovada ou recusada)', {
    auth: 'user',
    body: sandboxChargeSchema,
    answer: any,
    errors: [403, 404, 409],
    rateLimited: true,
  }),
  route('get', '/payments/sandbox/checkouts/:id', 'Pagamentos', 'Sandbox: o checkout hospedado (página /sandbox/checkout/{id})', { auth: 'user', answer: any, errors: [403, 404], rateLimited: true }),
  route('post', '/payments/sandbox/checkouts/:id/pay', 'Pagamentos', 'Sandbox: paga no checkout (cartão aprovado, recusado ou em análise; boleto pendente)', {
    auth: 'user',
    body: sandboxPaySchema,
    answer: any,
    errors: [403, 404, 409],
    rateLimited: true,
  }),
  route('post', '/payments/sandbox/checkouts/:id/authorize', 'Pagamentos', 'Sandbox: autoriza a renovação automática (primeira cobrança aprovada ou recusada)', {
    auth: 'user',
    body: sandboxChargeSchema,
    answer: any,
    errors: [403, 404, 409],
    rateLimited: true,
  }),
  route('post', '/payments/webhook', 'Pagamentos', 'Notificações do Mercado Pago (assinatura x-signature conferida)', {
    auth: 'none',
    body: { type: 'object' },
    answer: { type: 'object', properties: { received: { type: 'boolean' }, processed: { type: 'boolean' } }, required: ['received', 'processed'] },
    errors: [401],
    rateLimited: true,
  }),
  route('post', '/payments/create-pix/:planId', 'Pagamentos', 'Cria (ou reaproveita) a cobrança PIX de um plano', { auth: 'user', answers: { 200: pix, 201: pix }, errors: [400, 404, 409, 502], rateLimited: true }),
  route('post', '/create-pix/:planId', 'Pagamentos', 'O mesmo que /payments/create-pix/{planId} (caminho alternativo do cliente)', { auth: 'user', answers: { 200: pix, 201: pix }, errors: [400, 404, 409, 502], rateLimited: true }),
  route('get', '/payments/pix-polling-status/:id', 'Pagamentos', 'Status do PIX para o cliente consultar periodicamente', { auth: 'user', token: 'account:read', answer: any, errors: [404], rateLimited: true }),
  route('get', '/payments/pix-status/:id', 'Pagamentos', 'Status do PIX', { auth: 'user', token: 'account:read', answer: any, errors: [404], rateLimited: true }),
  route('get', '/payments/purchases', 'Pagamentos', 'As compras do usuário', { auth: 'user', token: 'account:read', query: pageQuerySchema, answer: any, rateLimited: true }),
  route('get', '/payments/purchase/:id', 'Pagamentos', 'Uma compra', { auth: 'user', token: 'account:read', answer: any, errors: [404], rateLimited: true }),
  route('get', '/payments/status/:purchaseId', 'Pagamentos', 'Status de uma compra', { auth: 'user', token: 'account:read', answer: any, errors: [404], rateLimited: true }),
  route('patch', '/payments/cancel/:id', 'Pagamentos', 'Cancela um PIX pendente', { auth: 'user', body: { type: 'object' }, answer: any, errors: [404, 409, 502], rateLimited: true }),
  route('post', '/payments/simulate-approval/:id', 'Pagamentos', 'Sandbox: aprova o PIX (403 SANDBOX_ONLY com o Mercado Pago)', { auth: 'user', answer: any, errors: [403, 404, 409, 410], rateLimited: true }),

  route('get', '/debug/user-state/:id', 'Sandbox', 'Sandbox: o estado do plano de um usuário (403 fora do sandbox)', { auth: 'admin', answer: any, errors: [404], rateLimited: true }),
  route('post', '/debug/test-apply-plan', 'Sandbox', 'Sandbox: aplica um plano a um usuário', { auth: 'admin', body: { type: 'object' }, answer: any, errors: [404], rateLimited: true }),
  route('post', '/debug/simulate-purchase', 'Sandbox', 'Sandbox: simula uma compra aprovada', { auth: 'admin', body: { type: 'object' }, answer: any, errors: [404], rateLimited: true }),
  route('post', '/debug/reset-user/:id', 'Sandbox', 'Sandbox: zera o plano de um usuário', { auth: 'admin', answer: any, errors: [404], rateLimited: true }),
];
