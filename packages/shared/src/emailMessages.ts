/**
 * pt-BR texts of the e-mail component that users read in the API's answers and the
 * dashboard (password recovery, address confirmation, notification preferences).
 * The e-mails' own texts live with their templates on the server.
 */
export const EMAIL_MESSAGES = {
  /** Register's answer, the same for a new and a taken address (no account enumeration). */
  registerCheckEmail: 'Conta criada! Enviamos um e-mail para você confirmar seu endereço.',
  /** After register, a taken address signs in with nothing: the owner was told by e-mail. */
  registerCheckInbox: 'Enviamos um e-mail para este endereço com os próximos passos.',
  forgotPasswordSent: 'Se houver uma conta com este e-mail, enviamos um link para criar uma nova senha. O link vale por 1 hora.',
  /** The same answer whether or not the account exists: this server delivers no e-mail (no SMTP). */
  forgotPasswordNoDelivery:
    'Este serviço não está enviando e-mails no momento, então nenhum link para criar uma nova senha vai chegar. Para recuperar o acesso, fale com o suporte e informe o e-mail da sua conta: os administradores já foram avisados do pedido.',
  resetLinkInvalid: 'Este link para criar uma nova senha é inválido, já foi usado ou expirou. Peça um novo em "Esqueci minha senha".',
  passwordReset: 'Senha alterada. Você entrou com a nova senha e as outras sessões foram encerradas.',
  verifyLinkInvalid: 'Este link de confirmação é inválido, já foi usado ou expirou. Peça um novo e-mail de confirmação.',
  emailVerified: 'E-mail confirmado. Obrigado!',
  emailAlreadyVerified: 'Seu e-mail já está confirmado.',
  /** The link opened where nobody is signed in to the account: the holder proves it is theirs. */
  verifySignInRequired: 'Para confirmar este e-mail, digite a senha desta conta. Se você não criou esta conta ou não sabe a senha, crie uma nova senha.',
  verifyPasswordWrong: 'Senha incorreta. Se você não sabe a senha desta conta, crie uma nova.',
  verifyOneProof: 'Envie a senha da conta ou uma nova senha, não as duas.',
  emailVerifiedSignedIn: 'E-mail confirmado. Você entrou na sua conta.',
  emailVerifiedNewPassword:
    'E-mail confirmado e nova senha criada. A senha anterior não entra mais; sessões, tokens de API, links de download, keystore e chave do Google Play feitos antes foram removidos.',
  verificationSent: 'Enviamos um novo e-mail de confirmação. Confira sua caixa de entrada.',
  verificationNotDeliverable: 'No momento não conseguimos enviar e-mails. Fale com o suporte para confirmar seu endereço.',
  emailNotVerified: 'Confirme seu e-mail para continuar: abra o link que enviamos para sua caixa de entrada ou peça um novo.',
  verifyBanner: 'Confirme seu e-mail para comprar planos e converter APKs.',
  linkTokenRequired: 'Link incompleto: abra o link do e-mail inteiro.',
  tooManyEmailRequests: 'Muitos pedidos de e-mail. Aguarde alguns minutos e tente novamente.',
  preferencesSaved: 'Preferências salvas.',
  preferencesEmpty: 'Diga qual aviso ligar ou desligar.',
  profileSaved: 'Perfil salvo.',
  /** The new address's link went out; nothing changes until it is followed. */
  emailChangeSent: (to: string) => `Enviamos um link para ${to}. O e-mail da conta muda quando você abrir esse link (vale por 24 horas).`,
  emailChangeSame: 'Este já é o e-mail da sua conta.',
  emailChangeNotDeliverable: 'O envio de e-mails não está configurado neste servidor: o link de confirmação não chegaria ao novo endereço. Fale com o suporte para trocar o e-mail.',
  emailChangeLinkInvalid: 'Este link de troca de e-mail já foi usado ou expirou. Peça a troca de novo em Conta › Perfil.',
  emailChangeTaken: 'Este e-mail já é usado por outra conta.',
  emailChanged: (to: string) => `E-mail da conta alterado para ${to}.`,
  emailNotFound: 'E-mail não encontrado.',
  /** Admin › E-mails 'Reenviar'. */
  emailResent: 'E-mail colocado na fila de envio de novo.',
  emailNotResendable: 'Só um e-mail cujo envio falhou pode ser reenviado.',
  emailLinkNotResendable: 'Este e-mail levava um link de uso único, que não é guardado depois da falha: peça ao cliente para solicitar um novo link.',
} as const;

/** What each message is, as the admin's e-mail list names it. */
export const EMAIL_KIND_LABELS = {
  welcome: 'Boas-vindas e confirmação',
  verify_email: 'Confirmação de e-mail',
  registration_attempt: 'Tentativa de cadastro',
  password_reset: 'Nova senha',
  password_changed: 'Senha alterada',
  purchase_approved: 'Recibo de compra',
  purchase_refunded: 'Reembolso',
  pix_expired: 'PIX expirado',
  renewal_failed: 'Renovação recusada',
  plan_expiring: 'Plano vence em 3 dias',
  plan_expired: 'Plano vencido',
  credits_low: 'Último crédito',
  conversion_finished: 'Conversão concluída',
  conversion_failed: 'Conversão com falha',
  product_news: 'Novidades do produto',
  email_change_confirm: 'Confirmação do novo e-mail',
  email_change_notice: 'Aviso de troca de e-mail',
  api_token_created: 'Novo token de API',
  new_sign_in: 'Novo acesso à conta',
  two_factor_changed: 'Verificação em duas etapas alterada',
  data_export_ready: 'Exportação dos dados pronta',
  admin_notice: 'Aviso aos administradores',
} as const;
export type EmailKind = keyof typeof EMAIL_KIND_LABELS;

export const EMAIL_STATUS_LABELS = { queued: 'Na fila', sent: 'Enviado', failed: 'Falhou' } as const;
export type EmailStatus = keyof typeof EMAIL_STATUS_LABELS;
export const EMAIL_STATUSES = Object.keys(EMAIL_STATUS_LABELS) as EmailStatus[];

/**
 * The optional e-mails and the account's switch for each (Conta › Perfil). Every other kind is
 * transactional — security, receipts, links asked for — and always goes.
 */
export const EMAIL_PREFERENCE_OF_KIND = {
  conversion_finished: 'notifyConversions',
  conversion_failed: 'notifyConversionFailures',
  product_news: 'notifyProductNews',
} as const satisfies Partial<Record<EmailKind, string>>;
export type EmailPreference = (typeof EMAIL_PREFERENCE_OF_KIND)[keyof typeof EMAIL_PREFERENCE_OF_KIND];

/** What each switch is called on the profile page. */
export const EMAIL_PREFERENCE_LABELS: Record<EmailPreference, { label: string; help: string }> = {
  notifyConversions: { label: 'Conversão concluída', help: 'Quando uma conversão que levou mais de um minuto é concluída.' },
  notifyConversionFailures: { label: 'Conversão com falha', help: 'Quando uma conversão que levou mais de um minuto falha (o crédito volta para a conta).' },
  notifyProductNews: { label: 'Novidades do produto', help: 'Recursos novos e mudanças no serviço, sem propaganda. No máximo uma vez por mês.' },
};
