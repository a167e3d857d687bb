/** The administrators' API: dashboard, users, conversions, queue, system, settings, plans, purchases. */
import {
  adminChangePasswordSchema,
  adminConfigUpdateSchema,
  adminConversionsQuerySchema,
  adminCreateAdminSchema,
  adminCreateUserSchema,
  adminCreditsSchema,
  adminPageQuerySchema,
  adminSubscriptionSchema,
  adminUpdateUserSchema,
  adminUserTypeSchema,
  adminUsersQuerySchema,
  planAnalyticsQuerySchema,
  planBulkDeleteSchema,
  planBulkUpdateSchema,
  planDuplicateSchema,
  planFilterQuerySchema,
  planInputSchema,
  planPerformanceQuerySchema,
  planReorderSchema,
  planSetPopularSchema,
} from '@aabify/shared';
import { ref } from '../components.js';
import { route, type RouteOptions } from '../route.js';

const any = ref('AnyObject');
const admin = (options: Omit<RouteOptions, 'auth' | 'rateLimited'>): RouteOptions => ({ auth: 'admin', rateLimited: true, ...options });
const user = { type: 'object', properties: { success: { type: 'boolean' }, message: { type: 'string' }, user: ref('User') }, required: ['user'] };
const csv = { media: 'text/csv', description: 'CSV dos planos' };

export const adminRoutes = [
  route('get', '/admin/dashboard', 'Administração', 'Números do painel: usuários, conversões, receita, fila, sistema, gráficos', admin({ answer: any })),
  route('get', '/admin/users', 'Administração', 'Usuários, com busca e filtros', admin({ query: adminUsersQuerySchema, answer: any })),
  route('post', '/admin/users/create-user', 'Administração', 'Cria um usuário', admin({ body: adminCreateUserSchema, answers: { 201: user }, errors: [409] })),
  route('post', '/admin/users/create-admin', 'Administração', 'Cria um administrador', admin({ body: adminCreateAdminSchema, answers: { 201: user }, errors: [409] })),
  route('get', '/admin/users/by-role/:role', 'Administração', 'Usuários de um papel', admin({ query: adminPageQuerySchema, answer: any, errors: [400] })),
  route('get', '/admin/users/:id', 'Administração', 'Um usuário, com suas conversões e compras', admin({ answer: any, errors: [404] })),
  route('patch', '/admin/users/:id/update', 'Administração', 'Altera nome, email, papel ou estado', admin({ body: adminUpdateUserSchema, answer: user, errors: [404, 409] })),
  route('patch', '/admin/users/:id/credits', 'Administração', 'Define ou soma créditos', admin({ body: adminCreditsSchema, answer: user, errors: [404] })),
  route('patch', '/admin/users/:id/subscription', 'Administração', 'Define a assinatura', admin({ body: adminSubscriptionSchema, answer: user, errors: [404] })),
  route('patch', '/admin/users/:id/type', 'Administração', 'Muda o tipo de plano (créditos ou assinatura)', admin({ body: adminUserTypeSchema, answer: user, errors: [404] })),
  route('patch', '/admin/users/:id/toggle-status', 'Administração', 'Ativa ou desativa a conta', admin({ answer: user, errors: [404, 409] })),
  route('patch', '/admin/users/:id/promote', 'Administração', 'Torna administrador', admin({ answer: user, errors: [404, 409] })),
  route('patch', '/admin/users/:id/demote', 'Administração', 'Volta a usuário', admin({ answer: user, errors: [404, 409] })),
  route('patch', '/admin/users/:id/change-password', 'Administração', 'Define a senha do usuário', admin({ body: adminChangePasswordSchema, answer: any, errors: [404] })),
  route('delete', '/admin/users/:id', 'Administração', 'Remove a conta', admin({ answer: any, errors: [404, 409] })),
  route('get', '/admin/admins', 'Administração', 'Os administradores', admin({ query: adminPageQuerySchema, answer: any })),
  route('get', '/admin/conversions', 'Administração', 'As conversões de todos os usuários', admin({ query: adminConversionsQuerySchema, answer: any })),
  route('delete', '/admin/conversions/:id', 'Administração', 'Remove uma conversão (cancelando-a antes, se ativa)', admin({ answer: ref('Message'), errors: [404] })),
  route('get', '/admin/queue', 'Administração', 'A fila de conversões', admin({ answer: any })),
  route('post', '/admin/queue/clear', 'Administração', 'Cancela toda conversão na fila (os créditos voltam)', admin({ answer: any })),
  route('get', '/admin/system', 'Administração', 'Processo e máquina: tempo no ar, memória, CPU', admin({ answer: any })),
  route('get', '/admin/config', 'Administração', 'As configurações (segredos mascarados)', admin({ answer: any })),
  route('put', '/admin/config/:key', 'Administração', 'Altera uma configuração', admin({ body: adminConfigUpdateSchema, answer: any, errors: [404] })),

  route('get', '/admin/plans', 'Administração: planos', 'Os planos, com filtros', admin({ query: planFilterQuerySchema, answer: any })),
  route('get', '/admin/plans/export', 'Administração: planos', 'Os planos em CSV', admin({ query: planFilterQuerySchema, answer: csv })),
  route('get', '/admin/plans/export.csv', 'Administração: planos', 'Os planos em CSV', admin({ query: planFilterQuerySchema, answer: csv })),
  route('get', '/admin/plans/analytics', 'Administração: planos', 'Vendas e receita por período', admin({ query: planAnalyticsQuerySchema, answer: any })),
  route('get', '/admin/plans/performance', 'Administração: planos', 'Desempenho dos planos', admin({ query: planPerformanceQuerySchema, answer: any })),
  route('patch', '/admin/plans/reorder', 'Administração: planos', 'Reordena os planos', admin({ body: planReorderSchema, answer: any, errors: [404] })),
  route('patch', '/admin/plans/bulk-update', 'Administração: planos', 'Altera vários planos', admin({ body: planBulkUpdateSchema, answer: any, errors: [404] })),
  route('delete', '/admin/plans/bulk-delete', 'Administração: planos', 'Remove (ou desativa) vários planos', admin({ body: planBulkDeleteSchema, answer: any, errors: [404] })),
  route('post', '/admin/plans', 'Administração: planos', 'Cria um plano', admin({ body: planInputSchema, answers: { 201: ref('PlanAnswer') }, errors: [409] })),
  route('get', '/admin/plans/:id', 'Administração: planos', 'Um plano', admin({ answer: ref('PlanAnswer'), errors: [404] })),
  route('get', '/admin/plans/:id/stats', 'Administração: planos', 'Vendas e receita do plano', admin({ answer: any, errors: [404] })),
  route('put', '/admin/plans/:id', 'Administração: planos', 'Substitui um plano', admin({ body: { type: 'object' }, answer: ref('PlanAnswer'), errors: [400, 404, 409] })),
  route('patch', '/admin/plans/:id', 'Administração: planos', 'Altera um plano', admin({ body: { type: 'object' }, answer: ref('PlanAnswer'), errors: [400, 404, 409] })),
  route('delete', '/admin/plans/:id', 'Administração: planos', 'Remove (ou desativa) um plano', admin({ answer: any, errors: [404] })),
  route('patch', '/admin/plans/:id/toggle-status', 'Administração: planos', 'Ativa ou desativa um plano', admin({ answer: ref('PlanAnswer'), errors: [404] })),
  route('patch', '/admin/plans/:id/set-popular', 'Administração: planos', 'Marca o plano como popular', admin({ body: planSetPopularSchema, answer: ref('PlanAnswer'), errors: [404] })),
  route('post', '/admin/plans/:id/duplicate', 'Administração: planos', 'Duplica um plano', admin({ body: planDuplicateSchema, answers: { 201: ref('PlanAnswer') }, errors: [404, 409] })),

  route('get', '/admin/payments/status', 'Administração: pagamentos', 'O provedor ativo e, quando os pagamentos estão indisponíveis, o porquê (sem segredos)', admin({
    answer: {
      type: 'object',
      properties: {
        provider: { enum: ['sandbox', 'mercadopago'] },
        label: { type: 'string' },
        sandbox: { type: 'boolean' },
        available: { type: 'boolean' },
        reason: { type: ['string', 'null'] },
        message: { type: ['string', 'null'] },
      },
      required: ['provider', 'label', 'sandbox', 'available', 'reason', 'message'],
    },
  })),
  route('get', '/admin/payments/purchases', 'Administração: pagamentos', 'As compras de todos os usuários, com forma de pagamento, provedor, parcelas e renovação', admin({ query: { type: 'object', properties: { page: { type: 'integer' }, limit: { type: 'integer' }, status: { type: 'string' }, method: { enum: ['pix', 'card', 'boleto', 'other'] }, search: { type: 'string' } } }, answer: any, errors: [400] })),
  route('post', '/admin/payments/:id/approve', 'Administração: pagamentos', 'Aprova uma compra (sandbox)', admin({ answer: any, errors: [403, 404, 409] })),
  route('post', '/admin/payments/:id/sync', 'Administração: pagamentos', 'Relê o pagamento no provedor', admin({ answer: any, errors: [404, 502] })),
  route('post', '/admin/payments/:id/refund', 'Administração: pagamentos', 'Estorna uma compra pelo provedor (PIX, cartão ou boleto)', admin({ body: { type: 'object', properties: { reason: { type: 'string' } } }, answer: any, errors: [400, 404, 409, 502] })),
];
