/**
 * Termos de Uso and Política de Privacidade as clients see them: the two documents, their
 * versions, the answers of /api/legal and /api/admin/legal, and the pt-BR texts. No yup here
 * (schemas: legalSchemas.ts). docs/privacy.md says what the policy must cover.
 */
export const LEGAL_DOCUMENT_KINDS = ['terms', 'privacy'] as const;
export type LegalDocumentKind = (typeof LEGAL_DOCUMENT_KINDS)[number];

export const LEGAL_DOCUMENT_TITLES: Record<LegalDocumentKind, string> = {
  terms: 'Termos de Uso',
  privacy: 'Política de Privacidade',
};

/** Where each document is read, signed in or not. */
export const LEGAL_DOCUMENT_PATHS: Record<LegalDocumentKind, string> = {
  terms: '/termos',
  privacy: '/privacidade',
};

export const LEGAL_LIMITS = {
  /** Characters of one version's text (plain text, paragraphs separated by blank lines). */
  bodyMaxLength: 100_000,
  bodyMinLength: 20,
} as const;

/** The encarregado (DPO) the privacy policy names, from the settings. */
export interface DataProtectionContact {
  name: string | null;
  email: string | null;
}

/** GET /api/legal/:kind */
export interface LegalDocumentResponse {
  kind: LegalDocumentKind;
  title: string;
  version: number;
  body: string;
  /** null for the text the product ships with (version 1, never edited). */
  publishedAt: string | null;
  /** Only on the privacy policy. */
  dataProtectionOfficer?: DataProtectionContact;
}

/** GET /api/legal/acceptance (signed in) */
export interface LegalAcceptanceStatus {
  required: boolean;
  current: Record<LegalDocumentKind, number>;
  accepted: Record<LegalDocumentKind, number | null>;
}

/** One version in Admin › Termos e privacidade. */
export interface LegalVersionSummary {
  version: number;
  publishedAt: string | null;
  publishedBy: string | null;
  length: number;
}

/** GET /api/admin/legal/:kind */
export interface AdminLegalDocumentResponse {
  document: LegalDocumentResponse;
  versions: LegalVersionSummary[];
}

/** Details of 403 LEGAL_ACCEPTANCE_REQUIRED. */
export interface LegalAcceptanceRequiredDetails {
  accept: string;
  current: Record<LegalDocumentKind, number>;
}

export const LEGAL_MESSAGES = {
  acceptRequired: 'Para criar a conta, aceite os Termos de Uso e a Política de Privacidade.',
  acceptToContinue: 'Para continuar, marque que leu e aceita os Termos de Uso e a Política de Privacidade.',
  acceptanceRequired: 'Os Termos de Uso ou a Política de Privacidade mudaram. Leia e aceite a nova versão para continuar.',
  versionOutdated: 'Há uma versão mais nova dos documentos. Recarregue a página, leia e aceite de novo.',
  versionInvalid: 'Versão inválida.',
  accepted: 'Obrigado! Você aceitou a versão atual dos Termos de Uso e da Política de Privacidade.',
  bodyRequired: 'O texto é obrigatório.',
  bodyTooShort: `O texto deve ter pelo menos ${LEGAL_LIMITS.bodyMinLength} caracteres.`,
  bodyTooLong: `O texto deve ter no máximo ${LEGAL_LIMITS.bodyMaxLength.toLocaleString('pt-BR')} caracteres.`,
  bodyUnchanged: 'O texto é igual ao da versão atual: nada a publicar.',
  kindInvalid: 'Documento desconhecido: use terms ou privacy.',
  documentNotFound: 'Documento não encontrado.',
  published: 'Nova versão publicada. Os clientes vão aceitá-la ao voltar.',
  dpoTitle: 'Encarregado pelo tratamento de dados pessoais (DPO)',
  dpoMissing: 'O encarregado ainda não foi indicado. Fale com o suporte.',
} as const;

/**
 * The texts the product ships with (version 1 of each), until an administrator publishes its
 * own. Deliberately generic: the operator knows its company, address and jurisdiction.
 */
export const DEFAULT_LEGAL_TEXTS: Record<LegalDocumentKind, string> = {
  terms: [
    'Estes Termos de Uso regem o uso do aabify, serviço que converte aplicativos Android do formato APK para o formato Android App Bundle (AAB).',
    'Ao criar uma conta, você declara que as informações fornecidas são verdadeiras e que tem o direito de enviar os arquivos que converte. Você é responsável pelo que envia e pela guarda da sua senha, dos seus tokens de API e das suas chaves.',
    'Os planos, seus preços e o que cada um inclui aparecem na página de planos. Créditos são usados quando uma conversão termina com sucesso; conversões que falham devolvem o crédito.',
    'Os arquivos enviados e gerados ficam guardados pelo prazo de retenção informado no painel e depois são apagados. Você pode excluir sua conta a qualquer momento em Conta › Meus dados.',
    'O serviço pode ser interrompido para manutenção. Faremos o possível para avisar com antecedência.',
    'Estes termos podem mudar. Quando mudarem, você verá a nova versão ao entrar e precisará aceitá-la para continuar usando o serviço.',
  ].join('\n\n'),
  privacy: [
    'Esta Política de Privacidade explica quais dados pessoais o aabify trata, por que e por quanto tempo, conforme a Lei Geral de Proteção de Dados (Lei nº 13.709/2018).',
    'Dados da conta: nome, e-mail e senha (guardada apenas como resumo criptográfico), usados para identificar você e proteger o acesso. Guardados enquanto a conta existir.',
    'Compras: plano, valor, data e forma de pagamento, guardados pelo prazo que a legislação fiscal exige, mesmo após a exclusão da conta.',
    'Conversões: os arquivos enviados e gerados, com seus registros, guardados pelo prazo de retenção do serviço; os registros das conversões, enquanto a conta existir.',
    'Segurança: endereço IP e navegador de cada acesso e sessão, usados para proteger a conta e mostrados em Conta › Atividade da conta.',
    'E-mails: cópia das mensagens enviadas a você, para comprovar o envio e reenviá-las se necessário.',
    'Seus direitos: em Conta › Meus dados você baixa tudo o que guardamos sobre você e pode excluir sua conta. Para outras solicitações, fale com o encarregado indicado abaixo.',
  ].join('\n\n'),
};
