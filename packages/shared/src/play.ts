/**
 * Publishing to Google Play (docs/play.md): the service-account key a user registers, the
 * publication request (track, release status, rollout, name and notes per language), what the
 * API shows of a publication, and every pt-BR message — the server, the dashboard and the CLI
 * (and the publishing code in @aabify/converter/play) say the same words.
 */

export const PLAY_LIMITS = {
  /** A service-account key file is about 2.3 KB; anything much larger is not one. */
  keyMaxBytes: 16 * 1024,
  releaseNameMax: 50,
  /** Play's limit on "What's new" text per language. */
  releaseNotesMax: 500,
  releaseNotesLanguagesMax: 20,
  trackNameMax: 100,
  packageNameMax: 255,
} as const;

export const PLAY_STANDARD_TRACKS = ['internal', 'alpha', 'beta', 'production'] as const;

/** A release's status on its track (Play's TrackRelease.status). */
export const PLAY_RELEASE_STATUSES = ['draft', 'completed', 'inProgress', 'halted'] as const;
export type PlayReleaseStatus = (typeof PLAY_RELEASE_STATUSES)[number];
/** What a publication may ask for (halting is done in Play Console). */
export const PLAY_PUBLISH_STATUSES = ['draft', 'completed', 'inProgress'] as const;
export type PlayPublishStatus = (typeof PLAY_PUBLISH_STATUSES)[number];

export const PLAY_TRACK_LABELS: Record<string, string> = {
  internal: 'Teste interno',
  alpha: 'Teste fechado (alpha)',
  beta: 'Teste aberto (beta)',
  production: 'Produção',
};

export const PLAY_RELEASE_STATUS_LABELS: Record<PlayReleaseStatus, string> = {
  draft: 'Rascunho',
  completed: 'Disponível para todos',
  inProgress: 'Lançamento gradual',
  halted: 'Interrompido',
};

export const PUBLICATION_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number];

export const PUBLICATION_STATUS_LABELS: Record<PublicationStatus, string> = {
  queued: 'Na fila',
  processing: 'Publicando',
  completed: 'Publicado',
  failed: 'Falhou',
};

/** Stages of a publication, in order (progress events and logs name them). */
export const PUBLICATION_STEPS = ['token', 'edit', 'upload', 'track', 'commit', 'done'] as const;
export type PublicationStep = (typeof PUBLICATION_STEPS)[number];

export const PUBLICATION_STEP_LABELS: Record<PublicationStep, string> = {
  token: 'Autenticando no Google',
  edit: 'Abrindo edição no Play Console',
  upload: 'Enviando o bundle',
  track: 'Criando a versão na faixa',
  commit: 'Confirmando a edição',
  done: 'Concluído',
};

/**
 * Every way publishing can fail, each with what to do. Google's own message is kept in the
 * publication's logs (and `detail`), never instead of these.
 */
export const PLAY_ERROR_MESSAGES = {
  PLAY_KEY_INVALID:
    'O arquivo não é uma chave de conta de serviço do Google Cloud: envie o JSON baixado em IAM › Contas de serviço › Chaves (com "type": "service_account", client_email e private_key).',
  PLAY_AUTH_FAILED:
    'O Google recusou a chave da conta de serviço (chave excluída, desativada ou inválida). Gere uma nova chave JSON no Google Cloud e cadastre-a de novo.',
  PLAY_APP_NOT_FOUND:
    'O app não existe no Play Console desta conta de desenvolvedor. O primeiro envio de um app precisa ser feito à mão no Play Console (criar o app e enviar o primeiro AAB); depois disso o aabify publica as próximas versões.',
  PLAY_PERMISSION_DENIED:
    'A conta de serviço não tem permissão para este app. No Play Console, em Usuários e permissões, convide o e-mail da conta de serviço e conceda "Ver informações do app" e "Lançar apps em faixas de teste" (e "Lançar para produção" para a produção).',
  PLAY_VERSION_CODE_USED:
    'Este versionCode já foi usado neste app no Google Play. Aumente o versionCode (na conversão, opção versionCode) e publique de novo.',
  PLAY_PACKAGE_MISMATCH: 'O nome do pacote do bundle é diferente do app no Play Console. Confira o applicationId do APK.',
  PLAY_UPLOAD_KEY_MISMATCH:
    'O bundle não está assinado com a chave de upload deste app. Converta de novo marcando "Assinar o AAB com minha chave de upload" (cadastre em Conta › Chave de upload o mesmo keystore registrado no Play Console).',
  PLAY_TRACK_NOT_FOUND:
    'A faixa não existe neste app. Use internal, alpha, beta, production ou o nome exato de uma faixa de teste fechado criada no Play Console.',
  PLAY_DRAFT_APP_ONLY:
    'O app ainda é um rascunho no Play Console: até a primeira versão ser publicada por lá, só são aceitas versões com status "draft" (rascunho).',
  PLAY_QUOTA_EXCEEDED: 'A cota diária da API do Google Play foi excedida para este projeto. Tente de novo mais tarde.',
  PLAY_UNAVAILABLE: 'O Google Play não respondeu. Tente de novo em alguns minutos.',
  PLAY_REJECTED: 'O Google Play recusou a publicação. Veja nos registros a mensagem do Google.',
} as const;
export type PlayErrorCode = keyof typeof PLAY_ERROR_MESSAGES;

export function isPlayErrorCode(code: unknown): code is PlayErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(PLAY_ERROR_MESSAGES, code);
}

export const PLAY_MESSAGES = {
  keyRequired: 'Envie o arquivo JSON da chave da conta de serviço.',
  keyTooLarge: `A chave deve ter no máximo ${PLAY_LIMITS.keyMaxBytes / 1024} KB.`,
  saved: 'Credenciais do Google Play salvas. A chave fica guardada criptografada e não pode ser baixada de volta.',
  deleted: 'Credenciais do Google Play removidas da conta.',
  notFound: 'Nenhuma credencial do Google Play cadastrada nesta conta.',
  required: 'Cadastre antes a chave da conta de serviço do Google Play (Conta › Google Play).',
  requiredForVersionCode: 'Para usar o versionCode uma acima da do Google Play, cadastre antes a chave da conta de serviço do Google Play (Conta › Google Play).',
  packageNameRequired: 'Informe o nome do pacote do app (ex.: com.empresa.app).',
  packageNameInvalid: 'Nome de pacote inválido (ex.: com.empresa.app).',
  testOk: (packageName: string) => `Conexão com o Google Play funcionando: a conta de serviço tem acesso de edição ao app ${packageName}.`,
  trackRequired: 'Escolha a faixa (internal, alpha, beta, production ou uma faixa fechada).',
  trackInvalid: 'Nome de faixa inválido.',
  statusInvalid: 'Status da versão inválido (draft, completed ou inProgress).',
  rolloutRequired: 'Informe a porcentagem do lançamento gradual (entre 0 e 100, sem incluir).',
  rolloutRange: 'A porcentagem do lançamento gradual deve ser maior que 0 e menor que 100.',
  rolloutOnlyInProgress: 'A porcentagem só vale para o lançamento gradual (inProgress).',
  releaseNameTooLong: `O nome da versão deve ter no máximo ${PLAY_LIMITS.releaseNameMax} caracteres.`,
  notesTooLong: `As notas da versão devem ter no máximo ${PLAY_LIMITS.releaseNotesMax} caracteres por idioma.`,
  notesLanguageInvalid: 'Idioma das notas inválido (ex.: pt-BR, en-US).',
  notesTooMany: `No máximo ${PLAY_LIMITS.releaseNotesLanguagesMax} idiomas de notas.`,
  conversionNotReady: 'Só conversões concluídas, com o AAB ainda guardado, podem ser publicadas.',
  notABundle: 'Só AABs são publicados no Google Play: esta conversão gerou um APK a partir de um AAB.',
  noPackageName: 'O relatório da conversão não tem o nome do pacote do app.',
  alreadyPublishing: 'Esta conversão já está sendo publicada. Aguarde o fim da publicação em andamento.',
  queued: 'Publicação na fila. Acompanhe o andamento nesta página.',
  rateLimited: 'Muitas publicações em pouco tempo. Aguarde um minuto e tente de novo.',
  publicationNotFound: 'Publicação não encontrada.',
  published: (track: string, versionCode: number) => `Publicado na faixa ${track} do Google Play (versionCode ${versionCode}).`,
  editDeleted: 'A edição aberta no Play Console foi descartada; nada foi alterado no app.',
  workerCrashed: 'A publicação foi interrompida várias vezes e não foi concluída.',
  cancelledOnRecovery:
    'Publicação cancelada: a conta foi recuperada pelo dono do e-mail, e o que foi cadastrado antes da confirmação do endereço (como a chave do Google Play) foi removido.',
} as const;

const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
export function isPackageName(value: string): boolean {
  return value.length <= PLAY_LIMITS.packageNameMax && PACKAGE_NAME.test(value);
}

export interface ReleaseNote {
  language: string;
  text: string;
}

/** What the API shows of the stored key: never the key itself. */
export interface PlayCredentialsMetadata {
  clientEmail: string;
  projectId: string | null;
  privateKeyId: string | null;
  createdAt: string;
  updatedAt: string;
  lastTestedAt: string | null;
  lastTestedPackage: string | null;
}

/** One publication of a conversion (GET /api/publications…). */
export interface ApiPublication {
  id: string;
  conversionId: string;
  userId: string;
  packageName: string;
  track: string;
  releaseStatus: PlayReleaseStatus;
  rolloutPercent: number | null;
  releaseName: string | null;
  releaseNotes: ReleaseNote[];
  status: PublicationStatus;
  progress: number;
  step: string | null;
  versionCode: number | null;
  editId: string | null;
  /** What Play answered: the bundle's versionCode and hashes, the track's releases. */
  playResponse: Record<string, unknown> | null;
  error: string | null;
  errorCode: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

/** Admin › Conversões: a publication with its owner and file. */
export interface AdminPublication extends ApiPublication {
  userEmail: string | null;
  fileName: string | null;
}

export interface PublicationLogEntry {
  id: string;
  timestamp: string;
  level: 'info' | 'warning' | 'error' | 'success';
  message: string;
  step: string | null;
}

/** socket.io `publication-update`, to the owner's sockets. */
export interface PublicationUpdate {
  publication: ApiPublication;
  log?: PublicationLogEntry;
}

export const PUBLICATION_SOCKET_EVENT = 'publication-update';
