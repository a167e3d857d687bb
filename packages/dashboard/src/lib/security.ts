/**
 * Texts and small rules of Conta › Segurança (pages/security/): pure, tested without a browser.
 */
import { API_TOKEN_SCOPE_LABELS, type ApiTokenScope, type SessionJson } from '@aabify/shared';
import { formatDateTime } from './format';

export const SECURITY_PAGE_TEXTS = {
  title: 'Segurança',
  twoFactorTitle: 'Verificação em duas etapas',
  twoFactorIntro:
    'Além da senha, o login pede um código de 6 dígitos de um aplicativo autenticador no seu celular (Google Authenticator, Microsoft Authenticator, 1Password, Authy…). Quem descobrir a sua senha não entra sem o celular.',
  twoFactorOff: 'Desativada.',
  scanHelp: 'Leia o código QR com o aplicativo autenticador (ou digite a chave abaixo) e informe o código de 6 dígitos que ele mostrar.',
  recoveryTitle: 'Códigos de recuperação',
  recoveryHelp:
    'Cada código entra uma vez, no lugar do código do aplicativo, se você perder o celular. Guarde-os num lugar seguro (um gerenciador de senhas): eles não serão mostrados novamente.',
  regenerateBody: 'Os códigos de recuperação atuais deixarão de valer. Continuar?',
  disableTitle: 'Desativar a verificação em duas etapas',
  disableHelp: 'Confirme com a senha e um código do aplicativo (ou de recuperação).',
  sessionsTitle: 'Sessões ativas',
  sessionsIntro: 'Os lugares onde sua conta está conectada agora. Não reconhece uma sessão? Encerre-a e troque sua senha.',
  sessionsEmpty: 'Nenhuma sessão ativa.',
  endTitle: 'Encerrar sessão',
  endBody: 'Quem estiver usando esta sessão sairá da conta imediatamente.',
  endCurrentBody: 'Esta é a sessão que você está usando: você sairá da conta.',
  ended: 'Sessão encerrada.',
  loadError: 'Não foi possível carregar.',
  thisSession: 'esta sessão',
} as const;

export function sessionLastUse(session: Pick<SessionJson, 'lastUsedAt'>): string {
  return session.lastUsedAt ? formatDateTime(session.lastUsedAt) : '—';
}

/** The sessions with the current one first, then the most recently used. */
export function sessionsInOrder(sessions: readonly SessionJson[]): SessionJson[] {
  const used = (s: SessionJson) => Date.parse(s.lastUsedAt ?? s.createdAt);
  return [...sessions].sort((a, b) => Number(b.current) - Number(a.current) || used(b) - used(a));
}

/** The recovery codes as a text file to keep (one per line, with what they are). */
export function recoveryCodesFile(email: string, codes: readonly string[]): string {
  return [`aabify — códigos de recuperação de ${email}`, 'Cada código entra uma vez no lugar do código do aplicativo.', '', ...codes, ''].join('\n');
}

/** 'Leitura, Conversões' */
export function scopeNames(scopes: readonly ApiTokenScope[]): string {
  return scopes.map((s) => API_TOKEN_SCOPE_LABELS[s].label).join(', ');
}
