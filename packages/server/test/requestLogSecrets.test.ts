/**
 * Secrets never in the request log, redacted by the route that serves the URL — never by how the
 * URL looks: a download link's path in any case (Express matches routes case-insensitively, so
 * `/api/Download/File/<token>` is served), a ticket under a percent-encoded query name, the
 * token of an e-mailed link's page. (The root hook, test/setup.ts, also searches every test
 * server's log for every secret the whole run minted: helpers/secretLog.ts.)
 */
import { Readable, Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import type { DownloadTokenResponse, StreamTicketResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildCreditUser, tokenFor } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { waitFor } from './helpers/conversions.js';
import type { Conversion, User } from '../src/models/index.js';

describe('request log: secrets redacted by the matched route', function () {
  this.timeout(60_000);
  let server: TestServer;
  let user: User;
  let session: string;
  let conversion: Conversion;
  const lines: string[] = [];
  const AAB = Buffer.from('PK\x03\x04 um aab de teste');

  before(async () => {
    const memory = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    server = await startTestServer({}, { logger: pino({ level: 'debug' }, memory) });
    user = await buildCreditUser(server, 3);
    session = tokenFor(server, user);
    conversion = await buildConversion(server, user, { status: 'completed', progress: 100, completedAt: new Date() });
    const aabKey = `testes/${conversion.id}/app.aab`;
    await server.ctx.storage.write(aabKey, Readable.from([AAB]));
    conversion = await conversion.update({ aabKey, aabSize: AAB.length });
  });
  after(async () => {
    await server?.stop();
  });

  /** The `url` of the request line of `path` (its line follows the answer). */
  async function loggedUrlOf(fetchPath: string, method = 'GET'): Promise<{ status: number; url: string }> {
    lines.length = 0;
    const controller = new AbortController();
    const res = await fetch(`${server.url}${fetchPath}`, { method, signal: controller.signal });
    controller.abort();
    const line = await waitFor(() => lines.find((l) => l.includes('"msg":"request"')), 10_000, `the request line of ${fetchPath}`);
    return { status: res.status, url: (JSON.parse(line) as { url: string }).url };
  }

  async function downloadToken(): Promise<string> {
    const res = await api(server).post<DownloadTokenResponse>(`/download/generate-download-token/${conversion.id}`, undefined, session);
    expect(res.status).to.equal(200);
    return res.body.downloadToken;
  }

  it('downloadLink_pathInAnyCase_servedAndLoggedWithItsTokenRedacted', async () => {
    const token = await downloadToken();
    for (const mount of ['/api/download/file', '/api/Download/File', '/API/DOWNLOAD/FILE']) {
      const { status, url } = await loggedUrlOf(`${mount}/${token}`);
      expect(status, mount).to.equal(200);
      expect(url).to.equal(`${mount}/[redacted]`);
    }
    // A refused token is the route's secret all the same.
    expect((await loggedUrlOf('/api/Download/File/um-token-que-nao-existe-aqui-0123')).url).to.equal('/api/Download/File/[redacted]');
    expect(lines.join('')).to.not.contain(token);
  });

  it('tempDownload_tokenUnderAnEncodedName_redacted_otherParametersKept', async () => {
    const token = await downloadToken();
    const { status, url } = await loggedUrlOf(`/api/conversion/temp-download/${conversion.id}?%74oken=${token}&origem=painel`);
    expect(status).to.equal(200);
    expect(url).to.equal(`/api/conversion/temp-download/${conversion.id}?%74oken=[redacted]&origem=painel`);
  });

  it('streamTicket_inTheQuery_redacted', async () => {
    const minted = await api(server).post<StreamTicketResponse>(`/conversion/updates/${conversion.id}/ticket`, undefined, session);
    const { status, url } = await loggedUrlOf(`/api/Conversion/Updates/${conversion.id}?token=${minted.body.ticket}`);
    expect(status).to.equal(200);
    expect(url).to.equal(`/api/Conversion/Updates/${conversion.id}?token=[redacted]`);
    expect(lines.join('')).to.not.contain(minted.body.ticket.slice(4));
  });

  it('emailedLinkPages_tokenInTheQueryRedacted', async () => {
    for (const page of ['/reset-password', '/verify-email']) {
      const { url } = await loggedUrlOf(`${page}?token=${'k'.repeat(43)}`);
      expect(url).to.equal(`${page}?token=[redacted]`);
    }
  });

  it('credentialNamedQueryOnAnyRoute_redacted_unmatchedPathLoggedWithoutItsQuery', async () => {
    const history = await loggedUrlOf(`/api/conversion/history?page=1&access_token=${session}`);
    expect(history.url).to.equal('/api/conversion/history?page=1&access_token=[redacted]');
    const unmatched = await loggedUrlOf('/api/nada/aqui?pagina=2&x=segredo-que-ninguem-declarou');
    expect(unmatched.status).to.equal(404);
    expect(unmatched.url).to.equal('/api/nada/aqui');
  });
});
