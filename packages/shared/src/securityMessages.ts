/**
 * pt-BR texts of account protection (accountSecurity.ts): token scopes, sessions, two-factor
 * sign-in and re-authentication. The server answers with them; the dashboard and the CLI show them.
 */
import { API_TOKEN_SCOPE_LABELS, type ApiTokenScope } from './accountSecurity.js';

export const SECURITY_MESSAGES = {
  sessionRequired:
    'Isto só pode ser feito numa sessão do painel: tokens de API não alteram a conta (senha, e-mail, chaves, tokens de API e verificação em duas etapas).',
  adminNeedsSession: 'Tokens de API nunca têm acesso de administrador: entre no painel para fazer isto.',
  tokenRevokesOnlyItself: 'Um token de API só pode revogar a si mesmo: revogue os outros em Conta › Tokens de API.',
  scopesRequired: 'Escolha ao menos um escopo',
  scopeInvalid: 'Escopo desconhecido',

  reauthRequired: 'Por segurança, confirme sua senha (ou um código de verificação) para continuar.',
  reauthProofRequired: 'Informe sua senha ou um código de verificação.',
  reauthDone: 'Identidade confirmada.',
  passwordWrong: 'Senha incorreta.',

  twoFactorCodeRequired: 'Código de verificação é obrigatório',
  twoFactorCodeFormat: 'Digite os 6 dígitos do aplicativo ou um código de recuperação',
  twoFactorChallengePrompt: 'Digite o código de 6 dígitos do seu aplicativo autenticador (ou um código de recuperação).',
  twoFactorChallengeRequired: 'A etapa de verificação está incompleta: entre com email e senha novamente.',
  twoFactorChallengeInvalid: 'A etapa de verificação expirou ou já foi usada. Entre com email e senha novamente.',
  twoFactorCodeInvalid: 'Código de verificação inválido.',
  twoFactorAlreadyEnabled: 'A verificação em duas etapas já está ativa. Desative-a antes de configurar outro aplicativo.',
  twoFactorNotEnabled: 'A verificação em duas etapas não está ativa nesta conta.',
  twoFactorSetupMissing: 'Comece a configuração novamente: gere um novo código QR.',
  twoFactorEnabled: 'Verificação em duas etapas ativada. Guarde os códigos de recuperação num lugar seguro: eles não serão mostrados novamente.',
  twoFactorDisabled: 'Verificação em duas etapas desativada.',
  recoveryCodesRegenerated: 'Novos códigos de recuperação gerados; os anteriores não valem mais. Guarde-os num lugar seguro.',
  passwordResetTwoFactor: 'Senha alterada e as outras sessões encerradas. Para entrar, digite o código do seu aplicativo autenticador.',
  emailVerifiedTwoFactor: 'E-mail confirmado. Para entrar, digite o código do seu aplicativo autenticador.',
  twoFactorSetupRequired:
    'Administradores precisam ativar a verificação em duas etapas antes de continuar: configure-a em Conta › Segurança.',

  sessionNotFound: 'Sessão não encontrada.',
  sessionEnded: 'Sessão encerrada.',
  unknownDevice: 'Dispositivo desconhecido',
} as const;

/** 403 TOKEN_SCOPE_MISSING: which scopes would have allowed the call. */
export function tokenScopeMissingMessage(scopes: readonly ApiTokenScope[]): string {
  const names = scopes.map((s) => `"${API_TOKEN_SCOPE_LABELS[s].label}" (${s})`);
  const which = names.length <= 1 ? `o escopo ${names[0] ?? ''}` : `um dos escopos ${names.slice(0, -1).join(', ')} ou ${names[names.length - 1]}`;
  return `Este token de API não tem permissão para isto. Crie um token com ${which} em Conta › Tokens de API.`;
}
