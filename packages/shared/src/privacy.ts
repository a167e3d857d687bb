/** "Meus dados" (Conta): exporting and deleting one's own account — messages, limits and answers. No yup here (privacySchemas.ts). */
export const PRIVACY_MESSAGES = {
  passwordRequired: 'Digite sua senha para confirmar a exclusão.',
  wrongPassword: 'Senha incorreta.',
  codeRequired: 'Digite o código do aplicativo autenticador (ou um código de recuperação).',
  codeInvalid: 'Código inválido.',
  adminCannotDeleteSelf: 'Administradores não excluem a própria conta por aqui: peça a outro administrador.',
  accountDeleted: 'Sua conta foi excluída. Conversões, arquivos, chaves, tokens e sessões foram apagados.',
  fiscalRecordKept:
    'O registro mínimo das suas compras (data, plano, valor, forma de pagamento e seus dados de cobrança) fica guardado à parte pelo prazo que a legislação fiscal exige, e só é usado para cumprir essa obrigação.',
  /** POST /account/exports, when e-mail can be delivered. */
  exportRequestedMail: 'Estamos preparando o arquivo com os seus dados. Avisaremos por e-mail quando ele estiver pronto para baixar nesta página.',
  /** POST /account/exports, when mail stays in the outbox: the page is where it appears. */
  exportRequested: 'Estamos preparando o arquivo com os seus dados. Ele aparece nesta página quando estiver pronto.',
  exportInProgress: 'Já estamos preparando uma exportação dos seus dados. Aguarde ela terminar.',
  exportLimit: 'Você já pediu o número máximo de exportações nas últimas 24 horas. Tente novamente mais tarde.',
  exportNotFound: 'Exportação não encontrada.',
  exportNotReady: 'Esta exportação ainda não está pronta.',
  exportExpired: 'Esta exportação expirou e o arquivo foi apagado. Peça uma nova.',
  exportFailed: 'Não foi possível gerar o arquivo. Peça uma nova exportação; se o erro continuar, fale com o suporte.',
} as const;

export const DATA_EXPORT_LIMITS = {
  /** How long a ready file is kept before it is deleted. */
  keepDays: 7,
  /** Exports one account may request in 24 hours. */
  perDay: 3,
} as const;

export const DATA_EXPORT_STATUSES = ['pending', 'ready', 'failed', 'expired'] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

export const DATA_EXPORT_STATUS_LABELS: Record<DataExportStatus, string> = {
  pending: 'Em preparação',
  ready: 'Pronta',
  failed: 'Falhou',
  expired: 'Expirada',
};

/** One export of the account's data, as GET /account/exports lists it. */
export interface DataExportJson {
  id: string;
  status: DataExportStatus;
  requestedAt: string;
  readyAt: string | null;
  /** When the file is deleted (ready ones). */
  expiresAt: string | null;
  /** Bytes of the zip (ready ones). */
  size: number | null;
  /** The file's name when downloaded. */
  filename: string;
}

export interface DataExportListResponse {
  exports: DataExportJson[];
}

export interface DataExportRequestResponse {
  export: DataExportJson;
  message: string;
}
