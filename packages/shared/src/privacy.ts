/** "Meus dados" (Conta): deleting one's own account — messages and the answer. No yup here (privacySchemas.ts). */
export const PRIVACY_MESSAGES = {
  passwordRequired: 'Digite sua senha para confirmar a exclusão.',
  wrongPassword: 'Senha incorreta.',
  codeRequired: 'Digite o código do aplicativo autenticador (ou um código de recuperação).',
  codeInvalid: 'Código inválido.',
  adminCannotDeleteSelf: 'Administradores não excluem a própria conta por aqui: peça a outro administrador.',
  accountDeleted: 'Sua conta foi excluída. Conversões, arquivos, chaves, tokens e sessões foram apagados.',
  fiscalRecordKept:
    'O registro mínimo das suas compras (data, plano, valor, forma de pagamento e seus dados de cobrança) fica guardado à parte pelo prazo que a legislação fiscal exige, e só é usado para cumprir essa obrigação.',
} as const;
