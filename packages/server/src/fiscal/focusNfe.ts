/**
 * The Focus NFe NFS-e API (docs/nfse.md): POST /v2/nfse?ref=REF asks for a note, GET
 * /v2/nfse/REF reads its state, DELETE /v2/nfse/REF {justificativa} cancels it. HTTP Basic with
 * the token as the user name and an empty password. The base URL is NFSE_API_URL (production by
 * default; the homologação host, or the tests' stand-in, otherwise).
 */

/** The provider's answer about one note (the fields we read). */
export interface FocusNfseNote {
  /** processando_autorizacao, autorizado, erro_autorizacao, cancelado, erro_cancelamento. */
  status: string;
  numero?: string | null;
  codigo_verificacao?: string | null;
  /** The municipality's page of the note. */
  url?: string | null;
  /** The note's PDF (DANFSE), when the provider renders one. */
  url_danfse?: string | null;
  /** The XML, as a path on the API's host. */
  caminho_xml_nota_fiscal?: string | null;
  erros?: { codigo?: string; mensagem?: string; correcao?: string | null }[] | null;
  mensagem?: string | null;
}

/** What Focus NFe needs to issue an NFS-e (its field names). */
export interface FocusNfseRequest {
  data_emissao: string;
  natureza_operacao: number;
  optante_simples_nacional: boolean;
  prestador: { cnpj: string; inscricao_municipal: string; codigo_municipio: string };
  tomador: {
    cpf?: string;
    cnpj?: string;
    razao_social: string;
    email: string;
    endereco: { logradouro: string; numero: string; complemento?: string; bairro: string; codigo_municipio?: string; uf: string; cep: string };
  };
  servico: {
    valor_servicos: number;
    aliquota: number;
    iss_retido: boolean;
    item_lista_servico: string;
    codigo_tributario_municipio?: string;
    discriminacao: string;
  };
}

/** A refused or failed call. `transient`: worth trying again (no answer, a 5xx, a rate limit). */
export class FocusNfeError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number | null,
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'FocusNfeError';
  }
}

export interface FocusNfeClientOptions {
  baseUrl: string;
  token: string;
  timeoutMs?: number;
}

/** The provider's own words for a refusal: its errors' messages, else its message, else the HTTP status. */
export function providerMessage(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const b = body as { erros?: unknown; mensagem?: unknown };
    if (Array.isArray(b.erros)) {
      const texts = b.erros.map((e: unknown) => (e && typeof e === 'object' && typeof (e as { mensagem?: unknown }).mensagem === 'string' ? (e as { mensagem: string }).mensagem : null)).filter((t): t is string => !!t);
      if (texts.length) return texts.join(' · ').slice(0, 2000);
    }
    if (typeof b.mensagem === 'string' && b.mensagem) return b.mensagem.slice(0, 2000);
  }
  return fallback;
}

function asNote(body: unknown): FocusNfseNote {
  if (!body || typeof body !== 'object' || typeof (body as { status?: unknown }).status !== 'string') {
    throw new FocusNfeError('Resposta inesperada do emissor de NFS-e', null, true);
  }
  return body as FocusNfseNote;
}

export class FocusNfeClient {
  private readonly base: string;
  private readonly auth: string;
  private readonly timeoutMs: number;

  constructor(opts: FocusNfeClientOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.auth = `Basic ${Buffer.from(`${opts.token}:`).toString('base64')}`;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
  }

  /** A link the provider gave, absolute (the XML comes as a path on its host). */
  absolute(link: string | null | undefined): string | null {
    if (!link) return null;
    try {
      return new URL(link, `${this.base}/`).toString();
    } catch {
      return null;
    }
  }

  issue(reference: string, request: FocusNfseRequest): Promise<FocusNfseNote> {
    return this.call('POST', `/v2/nfse?ref=${encodeURIComponent(reference)}`, request);
  }

  get(reference: string): Promise<FocusNfseNote> {
    return this.call('GET', `/v2/nfse/${encodeURIComponent(reference)}`);
  }

  cancel(reference: string, justification: string): Promise<FocusNfseNote> {
    return this.call('DELETE', `/v2/nfse/${encodeURIComponent(reference)}`, { justificativa: justification });
  }

  private async call(method: string, path: string, body?: unknown): Promise<FocusNfseNote> {
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers: { authorization: this.auth, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      throw new FocusNfeError(`Emissor de NFS-e inacessível: ${err instanceof Error ? err.message : String(err)}`, null, true);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (res.ok) return asNote(parsed);
    const transient = res.status >= 500 || res.status === 429 || res.status === 408;
    throw new FocusNfeError(providerMessage(parsed, `Emissor de NFS-e respondeu HTTP ${res.status}`), res.status, transient);
  }
}
