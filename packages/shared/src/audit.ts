/**
 * The audit trail as its clients see it: every action code with its pt-BR label and area, the
 * kinds of thing an event targets, limits, messages and the JSON of the answers
 * (/api/admin/audit, /api/account/activity). No yup here (schemas: auditSchemas.ts), so the
 * CLI could read it at no cost.
 *
 * To record a new kind of event, add its code to AUDIT_ACTIONS (server code then accepts it and
 * the admin screen lists it); `account: true` shows it to the affected account in "Atividade da conta".
 */
import type { UserRole } from './accounts.js';
import type { Pagination } from './paging.js';

export const AUDIT_AREAS = ['Segurança da conta', 'Usuários', 'Planos', 'Compras', 'Configurações', 'E-mails', 'Conversões', 'Auditoria', 'Privacidade'] as const;
export type AuditArea = (typeof AUDIT_AREAS)[number];

export interface AuditActionInfo {
  /** What happened, as a sentence's subject in pt-BR. */
  label: string;
  area: AuditArea;
  /** Shown to the affected account (its security log), not only to admins. */
  account: boolean;
}

export const AUDIT_ACTIONS = {
  'account.registered': { label: 'Conta criada pelo cadastro', area: 'Segurança da conta', account: true },
  'auth.sign_in': { label: 'Entrada na conta', area: 'Segurança da conta', account: true },
  'auth.sign_in_failed': { label: 'Tentativa de entrada recusada', area: 'Segurança da conta', account: true },
  'auth.sign_out': { label: 'Saída da conta', area: 'Segurança da conta', account: true },
  'auth.sign_out_all': { label: 'Saída de todas as sessões', area: 'Segurança da conta', account: true },
  'auth.session_ended': { label: 'Sessão encerrada pela lista de sessões', area: 'Segurança da conta', account: true },
  'two_factor.enabled': { label: 'Verificação em duas etapas ativada', area: 'Segurança da conta', account: true },
  'two_factor.disabled': { label: 'Verificação em duas etapas desativada', area: 'Segurança da conta', account: true },
  'two_factor.recovery_codes_regenerated': { label: 'Códigos de recuperação gerados de novo', area: 'Segurança da conta', account: true },
  'account.password_changed': { label: 'Senha alterada', area: 'Segurança da conta', account: true },
  'account.password_reset': { label: 'Senha redefinida pelo link do e-mail', area: 'Segurança da conta', account: true },
  'account.email_verified': { label: 'E-mail confirmado', area: 'Segurança da conta', account: true },
  'account.email_change_requested': { label: 'Troca de e-mail pedida (link enviado ao novo endereço)', area: 'Segurança da conta', account: true },
  'account.email_changed': { label: 'E-mail da conta alterado', area: 'Segurança da conta', account: true },
  'api_token.created': { label: 'Token de API criado', area: 'Segurança da conta', account: true },
  'api_token.revoked': { label: 'Token de API revogado', area: 'Segurança da conta', account: true },
  'keystore.saved': { label: 'Chave de upload salva', area: 'Segurança da conta', account: true },
  'keystore.removed': { label: 'Chave de upload removida', area: 'Segurança da conta', account: true },
  'play_key.saved': { label: 'Chave do Google Play salva', area: 'Segurança da conta', account: true },
  'play_key.removed': { label: 'Chave do Google Play removida', area: 'Segurança da conta', account: true },
  'legal.accepted': { label: 'Termos de Uso e Política de Privacidade aceitos', area: 'Privacidade', account: true },
  'account.data_export_requested': { label: 'Exportação dos dados da conta pedida', area: 'Privacidade', account: true },
  'account.data_export_downloaded': { label: 'Exportação dos dados da conta baixada', area: 'Privacidade', account: true },
  'account.deleted': { label: 'Conta excluída pelo titular', area: 'Privacidade', account: false },
  'account.billing_updated': { label: 'Dados de faturamento alterados', area: 'Privacidade', account: true },

  'setup.completed': { label: 'Primeiro administrador criado', area: 'Usuários', account: false },
  'user.created': { label: 'Usuário criado', area: 'Usuários', account: false },
  'user.updated': { label: 'Dados do usuário alterados', area: 'Usuários', account: true },
  'user.credits_changed': { label: 'Créditos alterados', area: 'Usuários', account: false },
  'user.subscription_changed': { label: 'Assinatura alterada', area: 'Usuários', account: false },
  'user.type_changed': { label: 'Tipo de plano alterado', area: 'Usuários', account: false },
  'user.status_changed': { label: 'Conta ativada ou desativada', area: 'Usuários', account: true },
  'user.role_changed': { label: 'Papel alterado', area: 'Usuários', account: true },
  'user.email_verified': { label: 'E-mail marcado como confirmado por administrador', area: 'Usuários', account: true },
  'user.password_changed': { label: 'Senha definida por administrador', area: 'Usuários', account: true },
  'user.deleted': { label: 'Usuário removido', area: 'Usuários', account: false },

  'plan.created': { label: 'Plano criado', area: 'Planos', account: false },
  'plan.updated': { label: 'Plano alterado', area: 'Planos', account: false },
  'plan.duplicated': { label: 'Plano duplicado', area: 'Planos', account: false },
  'plan.deleted': { label: 'Plano removido ou desativado', area: 'Planos', account: false },
  'plan.reordered': { label: 'Ordem do plano alterada', area: 'Planos', account: false },

  'purchase.approved': { label: 'Compra aprovada por administrador', area: 'Compras', account: false },
  'purchase.refunded': { label: 'Compra estornada por administrador', area: 'Compras', account: false },
  'purchase.cancelled': { label: 'Compra cancelada por administrador', area: 'Compras', account: false },
  'renewal.cancelled': { label: 'Renovação automática cancelada por administrador', area: 'Compras', account: false },

  'setting.changed': { label: 'Configuração alterada', area: 'Configurações', account: false },
  'email.resent': { label: 'E-mail reenviado', area: 'E-mails', account: false },
  'legal.published': { label: 'Nova versão de Termos de Uso ou Política de Privacidade', area: 'Privacidade', account: false },
  'privacy.fiscal_records_ended': { label: 'Dados fiscais de contas excluídas apagados ao fim do prazo legal', area: 'Privacidade', account: false },

  'conversion.viewed': { label: 'Conversão de cliente aberta', area: 'Conversões', account: false },
  'conversion.downloaded': { label: 'Arquivo de cliente baixado', area: 'Conversões', account: false },
  'conversion.cancelled': { label: 'Conversão de cliente cancelada', area: 'Conversões', account: false },
  'conversion.deleted': { label: 'Conversão removida', area: 'Conversões', account: false },
  'conversion.logs_cleared': { label: 'Logs de conversão de cliente apagados', area: 'Conversões', account: false },
  'queue.cleared': { label: 'Fila limpa', area: 'Conversões', account: false },

  'audit.exported': { label: 'Auditoria exportada (CSV)', area: 'Auditoria', account: false },
  'audit.purged': { label: 'Eventos antigos removidos pela retenção', area: 'Auditoria', account: false },
} as const satisfies Record<string, AuditActionInfo>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_CODES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

export function isAuditAction(code: string): code is AuditAction {
  return Object.prototype.hasOwnProperty.call(AUDIT_ACTIONS, code);
}

/** The label of a code; a code this version does not know (a newer server's) shows as itself. */
export function auditActionLabel(code: string): string {
  return isAuditAction(code) ? AUDIT_ACTIONS[code].label : code;
}

/** The actions the affected account reads in its own security log. */
export const ACCOUNT_VISIBLE_ACTIONS: readonly AuditAction[] = AUDIT_ACTION_CODES.filter((code) => AUDIT_ACTIONS[code].account);

export const AUDIT_TARGET_TYPES = ['user', 'plan', 'purchase', 'renewal', 'setting', 'email', 'conversion', 'api_token', 'keystore', 'play_key', 'queue', 'audit', 'legal_document'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const AUDIT_TARGET_LABELS: Record<AuditTargetType, string> = {
  user: 'Usuário',
  plan: 'Plano',
  purchase: 'Compra',
  renewal: 'Renovação automática',
  setting: 'Configuração',
  email: 'E-mail',
  conversion: 'Conversão',
  api_token: 'Token de API',
  keystore: 'Chave de upload',
  play_key: 'Chave do Google Play',
  queue: 'Fila',
  audit: 'Auditoria',
  legal_document: 'Termos e privacidade',
};

export const AUDIT_LIMITS = {
  pageSize: 25,
  maxPageSize: 100,
  /** Rows of one CSV export at most (the newest of the filtered set). */
  exportMaxRows: 50_000,
  /** The `audit.retentionDays` setting: default and bounds (the database refuses to delete younger events). */
  retentionDaysDefault: 365,
  retentionDaysMin: 30,
  retentionDaysMax: 3650,
  /** An admin reading the same customer's conversion again within this time is one event. */
  viewDedupeMinutes: 30,
  /** Free-text filters. */
  filterMaxLength: 200,
} as const;

export const AUDIT_MESSAGES = {
  eventNotFound: 'Evento de auditoria não encontrado',
  actionInvalid: 'Ação desconhecida',
  targetTypeInvalid: 'Tipo de alvo desconhecido',
  dateInvalid: 'Data inválida',
  rangeInvalid: 'A data final deve ser igual ou posterior à inicial',
  filterTooLong: 'Filtro deve ter no máximo 200 caracteres',
  exportTruncated: (max: number) => `A exportação traz os ${max.toLocaleString('pt-BR')} eventos mais recentes do filtro; refine o período para ver os demais.`,
} as const;

/** Header set on a CSV export that left older events out (AUDIT_LIMITS.exportMaxRows). */
export const AUDIT_EXPORT_TRUNCATED_HEADER = 'x-audit-export-truncated';

export interface AuditActorJson {
  /** null: no signed-in user (a refused sign-in of an unknown address, or the system's own jobs). */
  id: string | null;
  email: string | null;
  role: UserRole | null;
}

export interface AuditTargetJson {
  type: string;
  id: string | null;
  /** What the target was called when the event happened (an e-mail, a plan's name, a setting's key). */
  label: string | null;
}

/** One event in Admin › Auditoria's list. */
export interface AuditEventJson {
  id: string;
  at: string;
  action: string;
  actor: AuditActorJson;
  /** How the actor was signed in: a browser session or an API token. */
  via: 'session' | 'api_token' | null;
  /** The API token the actor used (via 'api_token'). */
  apiTokenId: string | null;
  address: string | null;
  userAgent: string | null;
  target: AuditTargetJson | null;
  /** The account the event concerns (its security log shows it). */
  accountId: string | null;
}

/** One event with what changed: secrets masked, never a password, token or key. */
export interface AuditEventDetail extends AuditEventJson {
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  details: Record<string, unknown> | null;
}

export interface AuditEventListResponse {
  events: AuditEventJson[];
  pagination: Pagination;
}

/** One entry of an account's own security log ("Atividade da conta"). */
export interface AccountActivityJson {
  id: string;
  at: string;
  action: string;
  label: string;
  /** Done by an administrator (address and device then stay with the admins). */
  byAdmin: boolean;
  address: string | null;
  /** The browser or program, from its user agent ("Chrome no Windows"). */
  device: string | null;
}

export interface AccountActivityResponse {
  events: AccountActivityJson[];
  pagination: Pagination;
}
