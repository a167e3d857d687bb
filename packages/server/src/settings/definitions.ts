/**
 * Every runtime setting admins edit: its type, default, pt-BR texts and whether it is a
 * secret (stored encrypted, never answered in full). To add one: extend SettingValues and
 * SETTING_DEFINITIONS (with a parser from valueParsers.ts); the service and GET /admin/config pick
 * it up.
 */
import { AUDIT_LIMITS, CONVERSION_LIMITS } from '@aabify/shared';
import type { Config } from '../config.js';
import {
  MB,
  PENDING_SIZE_RANGE,
  SETTING_MESSAGES,
  SIZE_RANGE,
  SettingValueError,
  cnpj,
  digits,
  emailAddress,
  integer,
  issRate,
  secretText,
  shortText,
  text,
  whatsappLink,
  yesNo,
} from './valueParsers.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type SettingLogLevel = (typeof LOG_LEVELS)[number];

export interface SettingValues {
  'conversions.concurrentPerUser': number;
  'conversions.maxConcurrent': number;
  'conversions.maxActivePerUser': number;
  'conversions.retentionDays': number;
  'conversions.maxDurationSeconds': number;
  'upload.maxFileSize': number;
  'upload.maxPendingUploads': number;
  'upload.maxPendingBytes': number;
  'queue.broadcastInterval': number;
  'logging.level': SettingLogLevel;
  'payments.mercadopago.accessToken': string;
  'payments.mercadopago.publicKey': string;
  'payments.mercadopago.webhookSecret': string;
  'payments.maxInstallments': number;
  'support.adminDownloads': boolean;
  'accounts.requireVerifiedEmail': boolean;
  'audit.retentionDays': number;
  'accounts.requireAdminTwoFactor': boolean;
  'support.email': string;
  'support.whatsapp': string;
  'legal.dpoName': string;
  'legal.dpoEmail': string;
  'fiscal.sellerName': string;
  'fiscal.sellerCnpj': string;
  'fiscal.sellerAddress': string;
  'fiscal.sellerEmail': string;
  'nfse.token': string;
  'nfse.municipalRegistration': string;
  'nfse.cityCode': string;
  'nfse.serviceCode': string;
  'nfse.municipalTaxCode': string;
  'nfse.issRate': number;
  'nfse.simplesNacional': boolean;
}
export type SettingKey = keyof SettingValues;

/** Topics of the settings screen, in the order it shows them. */
export const SETTING_GROUPS = ['Conversões', 'Uploads', 'Pagamentos', 'Fiscal', 'Segurança', 'Sistema', 'Suporte e privacidade'] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

export interface SettingDefinition<K extends SettingKey = SettingKey> {
  key: K;
  kind: 'number' | 'string' | 'enum' | 'boolean';
  /** What an admin reads as the setting's name. */
  title: string;
  group: SettingGroup;
  description: string;
  help?: string;
  recommended?: string;
  /** Stored encrypted at rest. */
  encrypted: boolean;
  /** Answered only masked (last 4 characters). */
  masked: boolean;
  /** The value when nothing is stored; null = not set. */
  defaultValue(config: Config): SettingValues[K] | null;
  /** Casts an admin's input (number or text) to the value, or throws SettingValueError in pt-BR. */
  parse(input: unknown): SettingValues[K];
  /** Why this running server cannot take the value (pt-BR), checked when an admin saves it. */
  refuse?(value: SettingValues[K], config: Config): string | undefined;
}

export const SETTING_DEFINITIONS: { [K in SettingKey]: SettingDefinition<K> } = {
  'conversions.concurrentPerUser': {
    key: 'conversions.concurrentPerUser',
    title: 'Conversões simultâneas por cliente',
    group: 'Conversões',
    kind: 'number',
    description: 'Conversões simultâneas por cliente (0 = ilimitado)',
    recommended: '1 a 3',
    encrypted: false,
    masked: false,
    defaultValue: () => 2,
    parse: integer(0, 100, 'Valor deve estar entre 0 e 100'),
  },
  'conversions.maxConcurrent': {
    key: 'conversions.maxConcurrent',
    title: 'Conversões simultâneas no total',
    group: 'Conversões',
    kind: 'number',
    description: 'Conversões simultâneas no total (todos os clientes)',
    help: 'Limite global de conversões em processamento ao mesmo tempo, somando todos os processos.',
    recommended: '3',
    encrypted: false,
    masked: false,
    defaultValue: () => 3,
    parse: integer(1, 64, 'Valor deve estar entre 1 e 64'),
  },
  'conversions.maxActivePerUser': {
    key: 'conversions.maxActivePerUser',
    title: 'Conversões na fila por cliente',
    group: 'Conversões',
    kind: 'number',
    description: 'Conversões na fila ou em processamento que cada cliente pode ter ao mesmo tempo',
    help: 'Vale para todos, inclusive assinantes e administradores. Passado o limite, um novo envio é recusado até uma das conversões do cliente terminar ou ser cancelada; assim um cliente não enche a fila de todos.',
    recommended: '10',
    encrypted: false,
    masked: false,
    defaultValue: () => CONVERSION_LIMITS.defaultMaxActivePerUser,
    parse: integer(1, 1000, 'Valor deve estar entre 1 e 1000'),
  },
  'conversions.retentionDays': {
    key: 'conversions.retentionDays',
    title: 'Por quanto tempo guardar os arquivos',
    group: 'Conversões',
    kind: 'number',
    description: 'Dias que os arquivos (APK e AAB) ficam guardados',
    help: 'Depois disso os arquivos são apagados; o registro da conversão continua, sem download.',
    recommended: '7',
    encrypted: false,
    masked: false,
    defaultValue: () => 7,
    parse: integer(1, 365, 'Valor deve estar entre 1 e 365 dias'),
  },
  'conversions.maxDurationSeconds': {
    key: 'conversions.maxDurationSeconds',
    title: 'Tempo máximo de uma conversão',
    group: 'Conversões',
    kind: 'number',
    description: 'Segundos que uma conversão pode levar antes de ser interrompida',
    help: 'Passado esse tempo, o conversor é interrompido, a conversão falha com uma mensagem clara e o crédito volta ao cliente. Um APK de 1 GB leva poucos segundos.',
    recommended: '600 (10 minutos)',
    encrypted: false,
    masked: false,
    defaultValue: () => 600,
    parse: integer(5, 4 * 3600, 'Valor deve estar entre 5 e 14400 segundos (4 horas)'),
  },
  'upload.maxFileSize': {
    key: 'upload.maxFileSize',
    title: 'Tamanho máximo do APK enviado',
    group: 'Uploads',
    kind: 'number',
    description: 'Tamanho máximo de upload, em bytes',
    help: 'Mínimo 1 MB (1048576), máximo 500 MB (524288000); 0 = sem limite (jogos grandes com OBB). Vale para a soma dos arquivos de uma conversão.',
    recommended: '104857600 (100 MB)',
    encrypted: false,
    masked: false,
    defaultValue: () => 100 * MB,
    parse: (input: unknown): number => {
      const value = integer(0, 500 * MB, SIZE_RANGE)(input);
      if (value !== 0 && value < MB) throw new SettingValueError(SIZE_RANGE);
      return value;
    },
  },
  'upload.maxPendingUploads': {
    key: 'upload.maxPendingUploads',
    title: 'Envios aguardando início, por cliente',
    group: 'Uploads',
    kind: 'number',
    description: 'Quantos arquivos enviados e ainda não convertidos cada cliente pode manter guardados',
    help: 'Vale para o envio em duas etapas (enviar, depois iniciar). Envios não iniciados são apagados após 1 hora.',
    recommended: '5',
    encrypted: false,
    masked: false,
    defaultValue: () => 5,
    parse: integer(1, 100, 'Valor deve estar entre 1 e 100'),
  },
  'upload.maxPendingBytes': {
    key: 'upload.maxPendingBytes',
    title: 'Espaço dos envios aguardando início, por cliente',
    group: 'Uploads',
    kind: 'number',
    description: 'Soma máxima, em bytes, dos arquivos enviados e ainda não convertidos de cada cliente',
    help: '0 = automático: 2 vezes o tamanho máximo do APK enviado (1 GB quando o tamanho é ilimitado). Máximo 10 GB (10737418240).',
    recommended: '0 (automático)',
    encrypted: false,
    masked: false,
    defaultValue: () => 0,
    parse: (input: unknown): number => {
      const value = integer(0, 10 * 1024 * MB, PENDING_SIZE_RANGE)(input);
      if (value !== 0 && value < MB) throw new SettingValueError(PENDING_SIZE_RANGE);
      return value;
    },
  },
  'queue.broadcastInterval': {
    key: 'queue.broadcastInterval',
    title: 'Frequência de atualização da fila',
    group: 'Conversões',
    kind: 'number',
    description: 'Intervalo de envio da posição na fila, em milissegundos',
    recommended: '30000',
    encrypted: false,
    masked: false,
    defaultValue: () => 30000,
    parse: integer(1000, 3600_000, 'Valor deve estar entre 1000 e 3600000 ms'),
  },
  'logging.level': {
    key: 'logging.level',
    title: 'Detalhe dos registros do servidor',
    group: 'Sistema',
    kind: 'enum',
    description: 'Nível de log (debug, info, warn, error)',
    recommended: 'info em produção',
    encrypted: false,
    masked: false,
    defaultValue: () => 'info',
    parse(input) {
      const value = text(input).toLowerCase();
      if (!(LOG_LEVELS as readonly string[]).includes(value)) throw new SettingValueError('Use debug, info, warn ou error');
      return value as SettingLogLevel;
    },
  },
  'payments.mercadopago.accessToken': {
    key: 'payments.mercadopago.accessToken',
    title: 'Access token do Mercado Pago',
    group: 'Pagamentos',
    kind: 'string',
    description: 'Access token do Mercado Pago (APP_USR-… em produção, TEST-… em testes)',
    help: 'Com um access token configurado, os pagamentos PIX passam a usar o Mercado Pago; sem nenhum (nem MERCADOPAGO_ACCESS_TOKEN nem PAYMENT_PROVIDER=mercadopago), o sandbox local. Se o token salvo não puder ser lido, os pagamentos param até ele ser cadastrado de novo: nunca voltam ao sandbox.',
    encrypted: true,
    masked: true,
    defaultValue: (config) => config.mercadoPago.accessToken ?? null,
    parse: secretText(512),
  },
  'payments.mercadopago.publicKey': {
    key: 'payments.mercadopago.publicKey',
    title: 'Public key do Mercado Pago',
    group: 'Pagamentos',
    kind: 'string',
    description: 'Public key do Mercado Pago (enviada ao navegador)',
    encrypted: true,
    masked: true,
    defaultValue: (config) => config.mercadoPago.publicKey ?? null,
    parse: secretText(512),
  },
  'payments.mercadopago.webhookSecret': {
    key: 'payments.mercadopago.webhookSecret',
    title: 'Assinatura secreta dos webhooks',
    group: 'Pagamentos',
    kind: 'string',
    description: 'Assinatura secreta dos webhooks do Mercado Pago',
    help: 'Gerada em "Suas integrações" > Webhooks, onde também se cadastra a URL abaixo.',
    encrypted: true,
    masked: true,
    defaultValue: (config) => config.mercadoPago.webhookSecret ?? null,
    parse: secretText(512),
  },
  'payments.maxInstallments': {
    key: 'payments.maxInstallments',
    title: 'Parcelas no cartão',
    group: 'Pagamentos',
    kind: 'number',
    description: 'Número máximo de parcelas oferecido no pagamento com cartão (1 = só à vista)',
    help: 'Vale para o checkout do Mercado Pago (e o do sandbox). Juros de parcelamento seguem as condições da sua conta no provedor. Renovações automáticas são sempre cobradas à vista.',
    recommended: '1 a 12',
    encrypted: false,
    masked: false,
    defaultValue: () => 12,
    parse: integer(1, 24, 'Valor deve estar entre 1 e 24'),
  },
  'support.adminDownloads': {
    key: 'support.adminDownloads',
    title: 'Administradores podem baixar os AABs dos clientes',
    group: 'Segurança',
    kind: 'boolean',
    description: 'Permite que administradores baixem os arquivos convertidos de qualquer cliente (suporte)',
    help: 'Desligado, o administrador vê a página, o status e os logs de uma conversão de cliente, mas não o arquivo.',
    recommended: 'Desligado',
    encrypted: false,
    masked: false,
    defaultValue: () => false,
    parse: yesNo,
  },
  'accounts.requireVerifiedEmail': {
    key: 'accounts.requireVerifiedEmail',
    title: 'Exigir e-mail confirmado',
    group: 'Segurança',
    kind: 'boolean',
    description: 'Clientes só compram planos e convertem depois de confirmar o e-mail pelo link enviado',
    help: 'Contas criadas antes do envio de e-mails contam como confirmadas. Administradores não precisam confirmar.',
    recommended: 'Ligado quando o envio por SMTP estiver configurado',
    encrypted: false,
    masked: false,
    defaultValue: () => false,
    parse: yesNo,
    // Without delivery nobody gets the link: every unconfirmed customer, paying ones too, would be locked out.
    refuse: (on, config) => (on && !config.mail.smtpUrl ? SETTING_MESSAGES.needsSmtp : undefined),
  },
  'audit.retentionDays': {
    key: 'audit.retentionDays',
    title: 'Por quanto tempo guardar a auditoria',
    group: 'Segurança',
    kind: 'number',
    description: 'Dias que os eventos de Administração › Auditoria ficam guardados',
    help: `Eventos mais antigos são apagados uma vez por hora; nenhuma outra rota apaga ou altera eventos. Mínimo ${AUDIT_LIMITS.retentionDaysMin} dias, máximo ${AUDIT_LIMITS.retentionDaysMax}.`,
    recommended: `${AUDIT_LIMITS.retentionDaysDefault} (um ano)`,
    encrypted: false,
    masked: false,
    defaultValue: () => AUDIT_LIMITS.retentionDaysDefault,
    parse: integer(AUDIT_LIMITS.retentionDaysMin, AUDIT_LIMITS.retentionDaysMax, `Valor deve estar entre ${AUDIT_LIMITS.retentionDaysMin} e ${AUDIT_LIMITS.retentionDaysMax} dias`),
  },
  'accounts.requireAdminTwoFactor': {
    key: 'accounts.requireAdminTwoFactor',
    title: 'Exigir verificação em duas etapas de administradores',
    group: 'Segurança',
    kind: 'boolean',
    description: 'Administradores sem a verificação em duas etapas (código de um aplicativo autenticador) precisam ativá-la ao entrar',
    help: 'A partir do próximo login, a sessão de um administrador sem ela só permite configurá-la em Conta › Segurança. Sessões já abertas continuam.',
    recommended: 'Ligado',
    encrypted: false,
    masked: false,
    defaultValue: () => false,
    parse: yesNo,
  },
  'support.email': {
    key: 'support.email',
    title: 'E-mail de suporte',
    group: 'Suporte e privacidade',
    kind: 'string',
    description: 'Para onde os clientes escrevem: aparece na Ajuda, na página de planos sem plano disponível, quando um pagamento falha e em "Esqueci minha senha" sem SMTP',
    recommended: 'Uma caixa que alguém lê todos os dias',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: emailAddress,
  },
  'support.whatsapp': {
    key: 'support.whatsapp',
    title: 'WhatsApp de suporte (opcional)',
    group: 'Suporte e privacidade',
    kind: 'string',
    description: 'Número com DDI e DDD ou link https://wa.me/…; aparece ao lado do e-mail de suporte',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: whatsappLink,
  },
  'legal.dpoName': {
    key: 'legal.dpoName',
    title: 'Encarregado de dados (DPO): nome',
    group: 'Suporte e privacidade',
    kind: 'string',
    description: 'Pessoa ou empresa que responde pelo tratamento de dados pessoais (LGPD, art. 41); aparece na Política de Privacidade',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: shortText(200),
  },
  'legal.dpoEmail': {
    key: 'legal.dpoEmail',
    title: 'Encarregado de dados (DPO): e-mail',
    group: 'Suporte e privacidade',
    kind: 'string',
    description: 'Contato do encarregado para pedidos dos titulares; aparece na Política de Privacidade',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: emailAddress,
  },
  'fiscal.sellerName': {
    key: 'fiscal.sellerName',
    title: 'Vendedor: razão social',
    group: 'Fiscal',
    kind: 'string',
    description: 'Razão social da empresa que vende os planos; sai nos recibos em PDF',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: shortText(150),
  },
  'fiscal.sellerCnpj': {
    key: 'fiscal.sellerCnpj',
    title: 'Vendedor: CNPJ',
    group: 'Fiscal',
    kind: 'string',
    description: 'CNPJ do vendedor (com ou sem pontuação); sai nos recibos e identifica o prestador nas NFS-e',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: cnpj,
  },
  'fiscal.sellerAddress': {
    key: 'fiscal.sellerAddress',
    title: 'Vendedor: endereço',
    group: 'Fiscal',
    kind: 'string',
    description: 'Endereço do vendedor numa linha (logradouro, número, bairro, município/UF, CEP); sai nos recibos',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: shortText(300),
  },
  'fiscal.sellerEmail': {
    key: 'fiscal.sellerEmail',
    title: 'Vendedor: e-mail',
    group: 'Fiscal',
    kind: 'string',
    description: 'E-mail do vendedor para assuntos fiscais; sai nos recibos',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: emailAddress,
  },
  'nfse.token': {
    key: 'nfse.token',
    title: 'Token da Focus NFe',
    group: 'Fiscal',
    kind: 'string',
    description: 'Token de acesso da API da Focus NFe (emissor de NFS-e); sem ele nenhuma nota fiscal é pedida',
    help: 'O token de homologação vale com NFSE_API_URL apontando para o ambiente de homologação; o de produção, com o endereço padrão (docs/nfse.md). Preencha também o código do serviço, a alíquota do ISS, a inscrição municipal e o código IBGE do município.',
    encrypted: true,
    masked: true,
    defaultValue: (config) => config.nfse.token ?? null,
    parse: secretText(512),
  },
  'nfse.municipalRegistration': {
    key: 'nfse.municipalRegistration',
    title: 'Inscrição municipal',
    group: 'Fiscal',
    kind: 'string',
    description: 'Inscrição municipal do prestador (o vendedor) no município que emite as NFS-e',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: shortText(30),
  },
  'nfse.cityCode': {
    key: 'nfse.cityCode',
    title: 'Município do prestador (código IBGE)',
    group: 'Fiscal',
    kind: 'string',
    description: 'Código IBGE (7 dígitos) do município onde o vendedor está inscrito, ex.: 3550308 para São Paulo',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: digits(7, 'Use os 7 dígitos do código IBGE do município'),
  },
  'nfse.serviceCode': {
    key: 'nfse.serviceCode',
    title: 'Item da lista de serviços',
    group: 'Fiscal',
    kind: 'string',
    description: 'Item da lista de serviços (Lei Complementar 116) do serviço vendido, ex.: 01.05 (licenciamento de programas); confirme com o contador',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: shortText(10),
  },
  'nfse.municipalTaxCode': {
    key: 'nfse.municipalTaxCode',
    title: 'Código tributário municipal (opcional)',
    group: 'Fiscal',
    kind: 'string',
    description: 'Código de tributação do município para o serviço, quando a prefeitura o exige',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: shortText(20),
  },
  'nfse.issRate': {
    key: 'nfse.issRate',
    title: 'Alíquota do ISS (%)',
    group: 'Fiscal',
    kind: 'number',
    description: 'Percentual do ISS sobre o valor do serviço, ex.: 2 ou 2,5',
    encrypted: false,
    masked: false,
    defaultValue: () => null,
    parse: issRate,
  },
  'nfse.simplesNacional': {
    key: 'nfse.simplesNacional',
    title: 'Optante pelo Simples Nacional',
    group: 'Fiscal',
    kind: 'boolean',
    description: 'Regime tributário do prestador: ligado se a empresa é optante pelo Simples Nacional',
    encrypted: false,
    masked: false,
    defaultValue: () => false,
    parse: yesNo,
  },
};

export function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTING_DEFINITIONS, key);
}

/** '••••••••1234': enough to recognise a key, never enough to use it. */
export function maskSecret(value: string): string {
  if (value.length <= 8) return '••••••••';
  return `••••••••${value.slice(-4)}`;
}
