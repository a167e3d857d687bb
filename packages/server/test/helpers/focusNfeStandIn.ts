/**
 * A local stand-in for the Focus NFe NFS-e API as docs/nfse.md describes it, reached through
 * NFSE_API_URL: HTTP Basic with the token as the user name; POST /v2/nfse?ref=REF answers 202
 * `processando_autorizacao` (or 422 `{ codigo, mensagem }` for a refused request); GET
 * /v2/nfse/REF answers the note's state; DELETE /v2/nfse/REF {justificativa} cancels an
 * authorized note. What the municipality does later is played by the test: authorize() and
 * refuse() settle a note, as the real service does asynchronously; failNext() answers the next
 * calls with a 503.
 *
 *   const focus = await FocusNfeStandIn.start({ token: 'tok' });
 *   await until(() => focus.note(ref));
 *   focus.authorize(ref);
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

export interface FocusStandInNote {
  ref: string;
  request: Json;
  status: 'processando_autorizacao' | 'autorizado' | 'erro_autorizacao' | 'cancelado';
  numero: string | null;
  codigo_verificacao: string | null;
  erros: { codigo: string; mensagem: string }[] | null;
  justificativa: string | null;
}

export interface FocusRecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Json | null;
  /** The HTTP status the stand-in answered. */
  status: number;
}

export class FocusNfeStandIn {
  readonly notes = new Map<string, FocusStandInNote>();
  readonly requests: FocusRecordedRequest[] = [];
  private failures = 0;
  private sequence = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly token: string,
  ) {}

  static async start(opts: { token: string }): Promise<FocusNfeStandIn> {
    let standIn: FocusNfeStandIn | null = null;
    const server = createServer((req, res) => {
      void standIn!.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    standIn = new FocusNfeStandIn(server, `http://127.0.0.1:${port}`, opts.token);
    return standIn;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  note(ref: string): FocusStandInNote | undefined {
    return this.notes.get(ref);
  }

  /** The municipality issues the note. */
  authorize(ref: string): FocusStandInNote {
    const note = this.mustHave(ref);
    this.sequence++;
    note.status = 'autorizado';
    note.numero = String(1000 + this.sequence);
    note.codigo_verificacao = `VER${this.sequence}ABC`;
    return note;
  }

  /** The municipality refuses the note, with its message. */
  refuse(ref: string, mensagem: string): FocusStandInNote {
    const note = this.mustHave(ref);
    note.status = 'erro_autorizacao';
    note.erros = [{ codigo: 'E999', mensagem }];
    return note;
  }

  /** The next `count` calls answer 503 (the provider down). */
  failNext(count: number): void {
    this.failures = count;
  }

  private mustHave(ref: string): FocusStandInNote {
    const note = this.notes.get(ref);
    if (!note) throw new Error(`no note ${ref} at the stand-in`);
    return note;
  }

  private view(note: FocusStandInNote): Json {
    const base: Json = { cnpj_prestador: (note.request.prestador as Json | undefined)?.cnpj ?? null, ref: note.ref, status: note.status };
    if (note.status === 'autorizado' || note.status === 'cancelado') {
      Object.assign(base, {
        numero: note.numero,
        codigo_verificacao: note.codigo_verificacao,
        url: `${this.url}/notas/${note.ref}`,
        url_danfse: `${this.url}/notas/${note.ref}.pdf`,
        caminho_xml_nota_fiscal: `/arquivos/${note.ref}-nfse.xml`,
      });
    }
    if (note.erros) base.erros = note.erros;
    return base;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Json | null = null;
    try {
      body = text ? (JSON.parse(text) as Json) : null;
    } catch {
      body = null;
    }
    const url = new URL(req.url ?? '/', this.url);
    const record: FocusRecordedRequest = { method: req.method ?? '', path: `${url.pathname}${url.search}`, authorization: req.headers.authorization, body, status: 0 };
    this.requests.push(record);
    const send = (status: number, json: Json) => {
      record.status = status;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (this.failures > 0) {
      this.failures--;
      return send(503, { codigo: 'servico_indisponivel', mensagem: 'Serviço temporariamente indisponível' });
    }
    const expected = `Basic ${Buffer.from(`${this.token}:`).toString('base64')}`;
    if (req.headers.authorization !== expected) return send(401, { codigo: 'nao_autorizado', mensagem: 'Token de acesso inválido' });

    if (req.method === 'POST' && url.pathname === '/v2/nfse') {
      const ref = url.searchParams.get('ref');
      if (!ref || !body) return send(400, { codigo: 'requisicao_invalida', mensagem: 'Parâmetro ref ou corpo ausente' });
      if (this.notes.has(ref)) return send(422, { codigo: 'ja_existe', mensagem: 'Nota fiscal já enviada com esta referência' });
      const tomador = body.tomador as Json | undefined;
      if (!tomador || (!tomador.cpf && !tomador.cnpj)) return send(422, { codigo: 'requisicao_invalida', mensagem: 'CPF ou CNPJ do tomador não informado' });
      const note: FocusStandInNote = { ref, request: body, status: 'processando_autorizacao', numero: null, codigo_verificacao: null, erros: null, justificativa: null };
      this.notes.set(ref, note);
      return send(202, this.view(note));
    }
    const match = /^\/v2\/nfse\/([^/]+)$/.exec(url.pathname);
    const note = match ? this.notes.get(decodeURIComponent(match[1])) : undefined;
    if (match && !note) return send(404, { codigo: 'nao_encontrado', mensagem: 'Nota fiscal não encontrada' });
    if (note && req.method === 'GET') return send(200, this.view(note));
    if (note && req.method === 'DELETE') {
      const justificativa = typeof body?.justificativa === 'string' ? body.justificativa : '';
      if (justificativa.length < 15) return send(400, { codigo: 'requisicao_invalida', mensagem: 'Justificativa deve ter entre 15 e 255 caracteres' });
      if (note.status !== 'autorizado' && note.status !== 'cancelado') return send(422, { status: 'erro_cancelamento', erros: [{ codigo: 'E1', mensagem: 'Nota não autorizada não pode ser cancelada' }] });
      note.status = 'cancelado';
      note.justificativa = justificativa;
      return send(200, { status: 'cancelado' });
    }
    return send(404, { codigo: 'nao_encontrado', mensagem: 'Rota desconhecida' });
  }
}
