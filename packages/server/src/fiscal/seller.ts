/** The seller as receipts and NFS-e name it: the Fiscal settings (Configurações › Fiscal). */
import type { SettingsService } from '../settings/index.js';

export interface SellerData {
  name: string | null;
  cnpj: string | null;
  address: string | null;
  email: string | null;
}

export async function readSeller(settings: Pick<SettingsService, 'get'>): Promise<SellerData> {
  const [name, cnpj, address, email] = await Promise.all([
    settings.get('fiscal.sellerName'),
    settings.get('fiscal.sellerCnpj'),
    settings.get('fiscal.sellerAddress'),
    settings.get('fiscal.sellerEmail'),
  ]);
  return { name, cnpj, address, email };
}

export function sellerComplete(seller: SellerData): boolean {
  return !!(seller.name && seller.cnpj && seller.address && seller.email);
}

/** What an NFS-e request needs from the settings besides the token, with the names admins read. */
export interface NfseSettings {
  token: string;
  sellerCnpj: string;
  municipalRegistration: string;
  cityCode: string;
  serviceCode: string;
  municipalTaxCode: string | null;
  issRate: number;
  simplesNacional: boolean;
}

/** The NFS-e settings, or the titles of those missing (the note's error says which). */
export async function readNfseSettings(settings: Pick<SettingsService, 'get'>): Promise<{ ok: true; value: NfseSettings } | { ok: false; missing: string[] }> {
  const [token, sellerCnpj, municipalRegistration, cityCode, serviceCode, municipalTaxCode, issRate, simplesNacional] = await Promise.all([
    settings.get('nfse.token'),
    settings.get('fiscal.sellerCnpj'),
    settings.get('nfse.municipalRegistration'),
    settings.get('nfse.cityCode'),
    settings.get('nfse.serviceCode'),
    settings.get('nfse.municipalTaxCode'),
    settings.get('nfse.issRate'),
    settings.get('nfse.simplesNacional'),
  ]);
  const missing = [
    !token && 'token da Focus NFe',
    !sellerCnpj && 'CNPJ do vendedor',
    !municipalRegistration && 'inscrição municipal',
    !cityCode && 'código IBGE do município do prestador',
    !serviceCode && 'item da lista de serviços',
    issRate === null && 'alíquota do ISS',
  ].filter((m): m is string => typeof m === 'string');
  if (missing.length || !token || !sellerCnpj || !municipalRegistration || !cityCode || !serviceCode || issRate === null) return { ok: false, missing };
  return { ok: true, value: { token, sellerCnpj, municipalRegistration, cityCode, serviceCode, municipalTaxCode, issRate, simplesNacional: simplesNacional ?? false } };
}
