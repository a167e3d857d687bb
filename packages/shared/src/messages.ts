/**
 * pt-BR texts users read for accounts and plan access. Each text lives here once; the server
 * answers with it and the dashboard's forms show it.
 */
export const ACCOUNT_MESSAGES = {
  emailRequired: 'Email é obrigatório',
  emailInvalid: 'Email inválido',
  emailTooLong: 'Email deve ter no máximo 254 caracteres',
  passwordRequired: 'Senha é obrigatória',
  /** Register form wording. */
  passwordMin: 'A senha deve ter pelo menos 6 caracteres',
  /** Setup form wording. */
  setupPasswordMin: 'Senha deve ter no mínimo 6 caracteres',
  passwordTooLong: 'A senha deve ter no máximo 128 caracteres',
  passwordHelper: 'Mínimo de 6 caracteres',
  passwordsDontMatch: 'As senhas não coincidem',
  nameTooLong: 'Nome deve ter no máximo 100 caracteres',
  currentPasswordRequired: 'Senha atual é obrigatória',
  newPasswordMin: 'Nova senha deve ter pelo menos 6 caracteres',
  newPasswordSameAsCurrent: 'A nova senha deve ser diferente da senha atual',
  currentPasswordWrong: 'Senha atual incorreta',
  formHasErrors: 'Por favor, corrija os erros no formulário',

  invalidCredentials: 'Email ou senha incorretos.',
  accountDisabled: 'Sua conta está desativada. Entre em contato com o administrador.',
  emailTaken: 'Este e-mail já está cadastrado.',
  /** Sign-up with a taken address (where confirmed e-mail is not required): where to go instead. */
  registerEmailTaken: 'Este e-mail já está cadastrado. Entre com sua senha ou use "Esqueci minha senha" para recuperar o acesso.',
  tooManyLoginAttempts: 'Muitas tentativas de login. Tente novamente mais tarde.',
  tooManyRequests: 'Muitas requisições. Tente novamente em instantes.',
  /** 408 REQUEST_TOO_SLOW: a request body that stopped or barely advances. */
  requestTooSlow: 'O envio parou ou está lento demais e a conexão foi encerrada. Verifique sua conexão com a internet e tente de novo.',
  tokenMissing: 'Token de acesso não fornecido.',
  tokenInvalid: 'Sessão inválida ou expirada. Faça login novamente.',
  adminRequired: 'Acesso restrito a administradores.',
  passwordChanged: 'Senha alterada com sucesso.',
  loggedOut: 'Você saiu da sua conta.',
  loggedOutEverywhere: 'Você saiu da sua conta em todos os dispositivos. Os tokens de API continuam valendo: revogue-os em Conta › Tokens de API.',
  logoutNeedsSession: 'Este pedido usa um token de API: para revogá-lo, use Conta › Tokens de API ou aabify logout.',

  setupAlreadyDone: 'A configuração inicial já foi concluída.',
  setupDefaultName: 'Administrador',
  setupSuccess: 'Administrador criado com sucesso! Redirecionando...',
  setupFailed: 'Erro ao criar administrador',
  loginSuccess: 'Login realizado com sucesso!',
  registerSuccess: 'Conta criada com sucesso!',

  apiTokenNameRequired: 'Nome do token é obrigatório',
  apiTokenNameTooLong: 'Nome do token deve ter no máximo 100 caracteres',
  apiTokenLimit: 'Limite de tokens de API atingido. Revogue um token antes de criar outro.',
  apiTokenNotFound: 'Token não encontrado.',
  apiTokenNeedsVerifiedEmail:
    'Confirme seu e-mail antes de criar tokens de API: abra o link que enviamos para sua caixa de entrada ou peça um novo.',
  apiTokenCreated: 'Token criado. Copie-o agora: ele não será mostrado novamente.',
} as const;

export const PLAN_ACCESS_MESSAGES = {
  no_plan: 'Você não possui um plano ativo. Escolha um plano para fazer conversões.',
  no_credits: 'Créditos insuficientes para fazer conversões.',
  expired: 'Limite mensal atingido ou assinatura expirada.',
  /** Shown before a conversion by a credit user without a free credit. */
  notEnoughCreditsForConversion: 'Você não possui créditos suficientes para fazer esta conversão.',
} as const;
