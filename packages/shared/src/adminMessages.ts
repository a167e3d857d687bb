/**
 * pt-BR texts of administration: what the server answers to /api/admin/* and what the admin
 * screens show. Each text lives here once.
 */
export const ADMIN_MESSAGES = {
  settingUnreadable: 'O valor salvo não pôde ser lido (foi salvo com outra chave de criptografia). Cadastre-o de novo.',
  // validation
  createUserRequired: 'Email e senha são obrigatórios',
  createAdminRequired: 'Por favor, preencha todos os campos',
  noChanges: 'Nenhuma alteração detectada',
  creditsMin: 'Créditos devem ser no mínimo 0',
  creditsInteger: 'Créditos devem ser um número inteiro',
  creditsTooMany: 'Créditos devem ser no máximo 1.000.000',
  userTypeInvalid: 'Tipo de usuário inválido (use credit ou subscription)',
  roleInvalid: 'Papel inválido (use user ou admin)',
  operationInvalid: 'Operação inválida (use set, add ou subtract)',
  expiresAtInvalid: 'Data de expiração inválida',
  monthsInvalid: 'Meses devem ser um número inteiro entre 1 e 120',
  planIdInvalid: 'Identificador de plano inválido',
  subscriptionNeedsPlan: 'Selecione um plano de assinatura para o usuário',
  planNotSubscription: 'O plano escolhido não é um plano de assinatura',
  creditsBelowZero: 'O saldo de créditos não pode ficar negativo',
  settingEmpty: 'Valor não pode ser vazio',
  settingNotNumber: 'Valor deve ser um número válido',
  settingFileSizeRange: 'Valor deve estar entre 1 MB (1048576) e 500 MB (524288000), ou 0 para sem limite',
  settingLevel: 'Use debug, info, warn ou error',
  // rules of accounts an admin may not break
  userNotFound: 'Usuário não encontrado',
  cannotDemoteSelf: 'Você não pode rebaixar a si mesmo',
  cannotDeleteSelf: 'Você não pode excluir a sua própria conta',
  cannotDeactivateSelf: 'Você não pode desativar a sua própria conta',
  alreadyAdmin: 'O usuário já é administrador',
  notAdmin: 'O usuário não é administrador',
  adminUseManagement: 'Administradores são gerenciados na tela Gerenciar Admins',
  // success
  userCreated: 'Usuário criado com sucesso!',
  adminCreated: 'Administrador criado com sucesso!',
  userUpdated: 'Usuário atualizado com sucesso!',
  userDeleted: 'Usuário excluído com sucesso!',
  userActivated: 'Usuário ativado com sucesso!',
  emailMarkedVerified: 'E-mail marcado como confirmado.',
  emailAlreadyVerified: 'O e-mail deste usuário já está confirmado.',
  verificationResent: 'E-mail de confirmação enviado ao usuário.',
  verificationNotDeliverable:
    'O envio de e-mails não está configurado (SMTP_URL): nenhuma mensagem chegaria ao usuário. Confira o endereço com ele e use "Marcar e-mail como confirmado".',
  userDeactivated: 'Usuário desativado com sucesso!',
  promoted: 'Usuário promovido a administrador!',
  demoted: 'Administrador rebaixado a usuário!',
  passwordChanged: 'Senha alterada com sucesso!',
  creditsUpdated: 'Créditos atualizados com sucesso!',
  subscriptionUpdated: 'Assinatura atualizada com sucesso!',
  typeUpdated: 'Tipo de usuário atualizado com sucesso!',
  conversionDeleted: 'Conversão excluída com sucesso!',
  conversionNotFound: 'Conversão não encontrada',
  queueCleared: (n: number) => (n === 1 ? '1 conversão removida da fila' : `${n} conversões removidas da fila`),
  configUpdated: 'Configuração atualizada com sucesso!',
  configUnknown: 'Configuração desconhecida',
  /** The webhook secret's hint: the whole URL with PUBLIC_URL set, else the path on this server. */
  webhookHint: (url: string) =>
    url.startsWith('/')
      ? `URL do webhook para cadastrar no Mercado Pago: o endereço público deste servidor seguido de ${url} (com PUBLIC_URL definida, a URL completa aparece aqui).`
      : `URL do webhook para cadastrar no Mercado Pago: ${url}`,
  // failures the screens show
  createAdminFailed: 'Erro ao criar admin',
  promoteFailed: 'Erro ao promover usuário',
  demoteFailed: 'Erro ao rebaixar admin',
  updateFailed: 'Erro ao atualizar usuário',
  createFailed: 'Erro ao criar usuário',
  deleteFailed: 'Erro ao deletar usuário',
  toggleFailed: 'Erro ao alterar status do usuário',
  passwordFailed: 'Erro ao alterar senha',
  configSaveFailed: 'Erro ao atualizar configuração',
  configLoadFailed: 'Erro ao carregar configurações',
  bulkUploadFailed: 'Erro ao fazer upload em massa',
  downloadFailed: 'Erro ao fazer download',
  logsDownloaded: 'Logs baixados',
  logsDownloadFailed: 'Erro ao baixar logs',
  noLogs: 'Sem logs disponíveis',
  noFilesSelected: 'Nenhum arquivo selecionado',
  /** More files picked than a bulk run takes: the first ones are kept, the rest named. */
  dropTooMany: (max: number, left: readonly string[]) =>
    `Até ${max} arquivos por vez: ${left.length === 1 ? '1 arquivo ficou de fora' : `${left.length} arquivos ficaram de fora`} (${left.join(', ')}). Converta-os depois destes.`,
} as const;
