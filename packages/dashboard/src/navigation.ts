/**
 * Every navigation entry of the dashboard, as data: the top bar's links, the account menu and
 * the admin sidebar's groups. Adding a screen to a menu is one line here.
 */
import type { ApiUser } from '@aabify/shared';
import type { IconName } from './components/Icon';

export interface NavLinkEntry {
  to: string;
  label: string;
  icon: IconName;
  /** Active only on exactly this path. */
  end?: boolean;
  /** Who sees it (everyone when absent). */
  visible?: (user: ApiUser | null) => boolean;
}

export interface NavGroup {
  label: string;
  entries: readonly NavLinkEntry[];
}

const isAdminUser = (u: ApiUser | null) => u?.role === 'admin';
const isCustomer = (u: ApiUser | null) => u?.role !== 'admin';

/** The top bar's main links. */
export const MAIN_NAV: readonly NavLinkEntry[] = [
  { to: '/dashboard', label: 'Painel', icon: 'speedometer2', visible: isCustomer },
  { to: '/admin', label: 'Administração', icon: 'speedometer2', visible: isAdminUser },
  { to: '/converter', label: 'Converter', icon: 'upload' },
  { to: '/history', label: 'Histórico', icon: 'clock-history' },
  { to: '/ajuda', label: 'Ajuda', icon: 'question-circle' },
];

/** Things the account menu does in place instead of opening a page (handled by the top bar). */
export type AccountAction = 'changePassword' | 'signOut';

export type AccountMenuEntry =
  | (NavLinkEntry & { kind: 'link' })
  | { kind: 'action'; action: AccountAction; label: string; icon: IconName; visible?: (user: ApiUser | null) => boolean };

/** The 'Conta' menu, in order; 'Sair' comes last after a divider. */
export const ACCOUNT_MENU: readonly AccountMenuEntry[] = [
  { kind: 'link', to: '/account/profile', label: 'Perfil', icon: 'person-badge' },
  { kind: 'action', action: 'changePassword', label: 'Alterar Senha', icon: 'key' },
  { kind: 'link', to: '/account/keystore', label: 'Chave de upload', icon: 'shield-lock' },
  { kind: 'link', to: '/account/google-play', label: 'Google Play', icon: 'google-play' },
  { kind: 'link', to: '/account/api-tokens', label: 'Tokens de API', icon: 'terminal' },
  { kind: 'link', to: '/account/security', label: 'Segurança', icon: 'shield-check' },
  { kind: 'link', to: '/account/activity', label: 'Atividade da conta', icon: 'clock-history' },
  { kind: 'link', to: '/purchases', label: 'Minhas compras', icon: 'bag', visible: isCustomer },
  { kind: 'link', to: '/account/billing', label: 'Dados de faturamento', icon: 'receipt', visible: isCustomer },
  { kind: 'link', to: '/account/data', label: 'Meus dados', icon: 'file-earmark-text', visible: isCustomer },
];

/** Screens laid out on the whole width up to 1400 px (the admin's sidebar beside wide lists); others keep Bootstrap's container. */
export function takesWholeWidth(pathname: string): boolean {
  return pathname === '/admin' || pathname.startsWith('/admin/');
}

/** The admin sidebar (a slide-out menu below 992 px), grouped by what an admin does. */
export const ADMIN_NAV: readonly NavGroup[] = [
  {
    label: 'Visão geral',
    entries: [
      { to: '/admin', label: 'Painel', icon: 'speedometer2', end: true },
      { to: '/admin/system', label: 'Fila e Sistema', icon: 'cpu' },
    ],
  },
  {
    label: 'Clientes',
    entries: [
      { to: '/admin/users', label: 'Gerenciar Usuários', icon: 'people' },
      { to: '/admin/purchases', label: 'Compras', icon: 'receipt' },
      { to: '/admin/conversions', label: 'Conversões', icon: 'collection' },
    ],
  },
  {
    label: 'Catálogo',
    entries: [{ to: '/admin/plans', label: 'Gerenciar Planos', icon: 'tags' }],
  },
  {
    label: 'Ferramentas',
    entries: [{ to: '/admin/bulk-converter', label: 'Conversão em Massa', icon: 'files' }],
  },
  {
    label: 'Administração',
    entries: [
      { to: '/admin/management', label: 'Administradores', icon: 'person-badge' },
      { to: '/admin/emails', label: 'E-mails', icon: 'envelope' },
      { to: '/admin/audit', label: 'Auditoria', icon: 'shield-lock' },
      { to: '/admin/legal', label: 'Termos e privacidade', icon: 'file-earmark-text' },
      { to: '/admin/settings', label: 'Configurações', icon: 'sliders' },
    ],
  },
];

export function visibleTo<T extends { visible?: (user: ApiUser | null) => boolean }>(entries: readonly T[], user: ApiUser | null): T[] {
  return entries.filter((e) => !e.visible || e.visible(user));
}
