/**
 * Billing details (dados de faturamento): who buys, as a Brazilian receipt and NFS-e name them.
 * CPF and CNPJ check digits follow the Receita Federal's rules, including the alphanumeric CNPJ
 * (docs/payments.md, "Billing details"). Kept free of yup: the schemas are in billingSchemas.ts.
 */

/** The 27 federative units (26 states and the Distrito Federal). */
export const BRAZILIAN_STATES = [
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA',
  'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO',
] as const;
export type BrazilianState = (typeof BRAZILIAN_STATES)[number];

export type TaxIdKind = 'cpf' | 'cnpj';

export const BILLING_LIMITS = {
  nameMax: 150,
  emailMax: 254,
  streetMax: 125,
  numberMax: 10,
  complementMax: 60,
  districtMax: 60,
  cityMax: 60,
} as const;

export const BILLING_MESSAGES = {
  documentRequired: 'Informe o CPF ou o CNPJ.',
  documentInvalid: 'CPF ou CNPJ inválido: confira os dígitos.',
  nameRequired: 'Informe o nome completo ou a razão social.',
  nameTooLong: `Use no máximo ${BILLING_LIMITS.nameMax} caracteres.`,
  emailRequired: 'Informe o e-mail para as notas fiscais.',
  emailInvalid: 'Informe um e-mail válido, como financeiro@empresa.com.br.',
  cepRequired: 'Informe o CEP.',
  cepInvalid: 'CEP inválido: use o formato 00000-000.',
  streetRequired: 'Informe o logradouro (rua, avenida…).',
  numberRequired: 'Informe o número (ou S/N).',
  districtRequired: 'Informe o bairro.',
  cityRequired: 'Informe o município.',
  cityCodeInvalid: 'Código IBGE do município: 7 dígitos.',
  stateInvalid: 'Escolha a UF.',
  tooLong: (max: number) => `Use no máximo ${max} caracteres.`,
  required: 'Para comprar, preencha antes os dados de faturamento (CPF ou CNPJ e endereço): eles vão no recibo e na nota fiscal.',
  saved: 'Dados de faturamento salvos.',
} as const;

/** The billing details as typed and stored: document normalised (digits, or 14 alphanumerics for a CNPJ). */
export interface BillingDetails {
  /** CPF (11 digits) or CNPJ (14 characters, uppercase), without punctuation. */
  document: string;
  /** Nome completo (CPF) or razão social (CNPJ). */
  name: string;
  /** Where invoices are sent. */
  email: string;
  /** 00000-000. */
  cep: string;
  street: string;
  number: string;
  complement: string | null;
  district: string;
  city: string;
  /** The municipality's IBGE code (7 digits), which some NFS-e services ask for. */
  cityCode: string | null;
  state: BrazilianState;
}

/** As the API answers them: with the document's kind and its formatted form. */
export interface ApiBillingDetails extends BillingDetails {
  documentKind: TaxIdKind;
  documentFormatted: string;
}

/** GET /api/account/billing and PUT /api/account/billing */
export interface BillingDetailsResponse {
  billingDetails: ApiBillingDetails | null;
  message?: string;
}

const ALL_SAME = /^(.)\1+$/;

/** Upper case, punctuation (. / - and spaces) removed: what check digits are computed on. */
export function compactTaxId(input: string): string {
  return input.replace(/[\s./-]/g, '').toUpperCase();
}

/** The value of a CNPJ character in the check-digit sum: its ASCII code minus 48 ('0' → 0, 'A' → 17). */
function charValue(c: string): number {
  return c.charCodeAt(0) - 48;
}

/** One modulo-11 check digit over `base` with `weights`: remainder below 2 gives 0, otherwise 11 minus it. */
function mod11Digit(base: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < base.length; i++) sum += charValue(base[i]) * weights[i];
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** A CPF, formatted (000.000.000-00) or bare: 11 digits, not all the same, both check digits right. */
export function isValidCpf(input: string): boolean {
  const cpf = compactTaxId(input);
  if (!/^\d{11}$/.test(cpf) || ALL_SAME.test(cpf)) return false;
  const first = mod11Digit(cpf.slice(0, 9), CPF_WEIGHTS_1);
  const second = mod11Digit(cpf.slice(0, 10), CPF_WEIGHTS_2);
  return cpf[9] === String(first) && cpf[10] === String(second);
}

/**
 * A CNPJ, formatted (00.000.000/0000-00) or bare: numeric, or the alphanumeric form (12 letters or
 * digits, then 2 check digits); not all the same character; both check digits right.
 */
export function isValidCnpj(input: string): boolean {
  const cnpj = compactTaxId(input);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || ALL_SAME.test(cnpj)) return false;
  const first = mod11Digit(cnpj.slice(0, 12), CNPJ_WEIGHTS_1);
  const second = mod11Digit(cnpj.slice(0, 13), CNPJ_WEIGHTS_2);
  return cnpj[12] === String(first) && cnpj[13] === String(second);
}

/** What a valid CPF or CNPJ is, or null when it is neither. */
export function taxIdKind(input: string): TaxIdKind | null {
  if (isValidCpf(input)) return 'cpf';
  if (isValidCnpj(input)) return 'cnpj';
  return null;
}

/** 12345678909 → 123.456.789-09; 11222333000181 → 11.222.333/0001-81; anything else as given. */
export function formatTaxId(input: string): string {
  const id = compactTaxId(input);
  if (/^\d{11}$/.test(id)) return `${id.slice(0, 3)}.${id.slice(3, 6)}.${id.slice(6, 9)}-${id.slice(9)}`;
  if (/^[0-9A-Z]{14}$/.test(id)) return `${id.slice(0, 2)}.${id.slice(2, 5)}.${id.slice(5, 8)}/${id.slice(8, 12)}-${id.slice(12)}`;
  return input;
}

/** 01310100 or 01310-100 → 01310-100; null when it is not 8 digits. */
export function normalizeCep(input: string): string | null {
  const digits = input.replace(/[\s.-]/g, '');
  return /^\d{8}$/.test(digits) ? `${digits.slice(0, 5)}-${digits.slice(5)}` : null;
}

export function isBrazilianState(value: unknown): value is BrazilianState {
  return typeof value === 'string' && (BRAZILIAN_STATES as readonly string[]).includes(value);
}

/** The details with what clients show: the document's kind and formatted form. */
export function presentBillingDetails(details: BillingDetails): ApiBillingDetails {
  return { ...details, documentKind: taxIdKind(details.document) ?? 'cpf', documentFormatted: formatTaxId(details.document) };
}

/** The address on one line, as a receipt prints it. */
export function billingAddressLine(d: Pick<BillingDetails, 'street' | 'number' | 'complement' | 'district' | 'city' | 'state' | 'cep'>): string {
  const first = [d.street, d.number, d.complement].filter((p): p is string => !!p).join(', ');
  return `${first} – ${d.district} – ${d.city}/${d.state} – CEP ${d.cep}`;
}
