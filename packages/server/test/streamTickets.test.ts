/**
 * No long-lived token in URLs. The event stream's `?token=` takes a
 * single-use, one-minute stream ticket minted over an authenticated call; a session JWT or an
 * API token there is refused; the request log never prints a token or ticket.
 */
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { CONVERSION_LIMITS, CONVERSION_MESSAGES, type CreatedApiTokenResponse, type StreamTicketResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { DEFAULT_PASSWORD, buildCreditUser, tokenFor } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import type { User } from '../src/models/index.js';

type Err = { message: string; code: string };

describe('stream tickets (/api/conversion/updates/{id}/ticket)', function () {
  this.timeout(60000);
  let server: TestServer;
  const logLines: string[] = [];

  before(async () => {
    const memory = new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    });
    server = await startTestServer({}, { logger: pino({ level: 'debug' }, memory) });
  });
  after(async () => {
    await server?.stop();
  });

  async function ownerWithConversion(): Promise<{ user: User; token: string; id: string }> {
    const user = await buildCreditUser(server, 3);
    const conversion = await buildConversion(server, user, { status: 'pending' });
    return { user, token: tokenFor(server, user), id: conversion.id };
  }

  async function mint(id: string, token: string): Promise<StreamTicketResponse> {
    const res = await api(server).post<StreamTicketResponse>(`/conversion/updates/${id}/ticket`, undefined, token);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  }

  /** Opens the stream, reads its first chunk and closes it; the status and that chunk. */
  async function openStream(id: string, query: string, headers: Record<string, string> = {}): Promise<{ status: number; first: string; body?: Err }> {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/api/conversion/updates/${id}${query}`, { headers, signal: controller.signal });
    if (res.status !== 200) return { status: res.status, first: '', body: (await res.json()) as Err };
    const reader = res.body!.getReader();
    const chunk = await reader.read();
    controller.abort();
    await reader.cancel().catch(() => undefined);
    return { status: 200, first: new TextDecoder().decode(chunk.value) };
  }

  it('mint_answersASingleUseTicketForAMinute', async () => {
    const { token, id } = await ownerWithConversion();
    const t = await mint(id, token);
    expect(t.ticket).to.match(/^sse_[A-Za-z0-9_-]{43}$/);
    expect(t).to.include({ conversionId: id, expiresIn: CONVERSION_LIMITS.streamTicketTtlSeconds });
    const left = new Date(t.expiresAt).getTime() - Date.now();
    expect(left).to.be.greaterThan(0).and.at.most(CONVERSION_LIMITS.streamTicketTtlSeconds * 1000);
    // Only a hash is stored.
    const rows = await server.ctx.models.StreamTicket.findAll({ where: { conversionId: id } });
    expect(rows).to.have.length(1);
    expect(JSON.stringify(rows[0].toJSON())).to.not.contain(t.ticket.slice(4));
  });

  it('ticket_opensTheStreamOnce_secondUseRefused', async () => {
    const { token, id } = await ownerWithConversion();
    const { ticket } = await mint(id, token);
    const first = await openStream(id, `?token=${ticket}`);
    expect(first.status).to.equal(200);
    expect(first.first).to.contain('retry:');
    const second = await openStream(id, `?token=${ticket}`);
    expect(second.status).to.equal(401);
    expect(second.body).to.deep.equal({ message: CONVERSION_MESSAGES.streamTicketInvalid, code: 'STREAM_TICKET_INVALID' });
  });

  it('ticket_usedTwiceAtOnce_exactlyOneStreamOpens', async () => {
    const { token, id } = await ownerWithConversion();
    const { ticket } = await mint(id, token);
    const both = await Promise.all([openStream(id, `?token=${ticket}`), openStream(id, `?token=${ticket}`)]);
    expect(both.map((r) => r.status).sort()).to.deep.equal([200, 401]);
  });

  it('ticket_expired_refused', async () => {
    const { user, token, id } = await ownerWithConversion();
    const { ticket } = await mint(id, token);
    await server.ctx.models.StreamTicket.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { userId: user.id } });
    const res = await openStream(id, `?token=${ticket}`);
    expect(res.status).to.equal(401);
    expect(res.body).to.deep.equal({ message: CONVERSION_MESSAGES.streamTicketExpired, code: 'STREAM_TICKET_EXPIRED' });
  });

  it('otherUsersConversion_mintRefused404_andATicketOfAnotherConversionRefused404', async () => {
    const a = await ownerWithConversion();
    const b = await ownerWithConversion();
    const minted = await api(server).post<Err>(`/conversion/updates/${b.id}/ticket`, undefined, a.token);
    expect(minted.status).to.equal(404);
    expect(minted.body.code).to.equal('CONVERSION_NOT_FOUND');
    const { ticket } = await mint(a.id, a.token);
    const res = await openStream(b.id, `?token=${ticket}`);
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ message: CONVERSION_MESSAGES.notFoundOrUnauthorized, code: 'CONVERSION_NOT_FOUND' });
  });

  it('longLivedTokenInTheQuery_refusedWithACodedMessage', async () => {
    const { token, id } = await ownerWithConversion();
    const created = await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name: 'CI' }, token);
    expect(created.status).to.equal(201);
    for (const longLived of [token, created.body.token, 'errado']) {
      const res = await openStream(id, `?token=${encodeURIComponent(longLived)}`);
      expect(res.status, longLived.slice(0, 8)).to.equal(401);
      expect(res.body).to.deep.equal({ message: CONVERSION_MESSAGES.streamTicketRequired, code: 'STREAM_TICKET_REQUIRED' });
    }
    // Even beside a valid Authorization header: a token in a URL is refused, not ignored.
    expect((await openStream(id, `?token=${encodeURIComponent(token)}`, { authorization: `Bearer ${token}` })).status).to.equal(401);
  });

  it('bearerHeader_stillOpensTheStream_forClientsThatSendHeaders', async () => {
    const { token, id } = await ownerWithConversion();
    const res = await openStream(id, '', { authorization: `Bearer ${token}` });
    expect(res.status).to.equal(200);
    expect(res.first).to.contain('retry:');
    expect((await openStream(id, '')).status).to.equal(401);
  });

  it('credentialEndedAfterMinting_ticketRefused', async () => {
    // Minted with an API token that is then revoked.
    const { token, id } = await ownerWithConversion();
    const created = await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name: 'CI' }, token);
    const viaToken = await mint(id, created.body.token);
    expect((await api(server).delete(`/auth/tokens/${created.body.id}`, token)).status).to.equal(204);
    expect((await openStream(id, `?token=${viaToken.ticket}`)).status).to.equal(401);
    // Minted with a session that a password change then ends.
    const viaSession = await mint(id, token);
    expect((await api(server).patch('/auth/change-password', { currentPassword: DEFAULT_PASSWORD, newPassword: 'outra-senha-forte-456' }, token)).status).to.equal(200);
    const res = await openStream(id, `?token=${viaSession.ticket}`);
    expect(res.status).to.equal(401);
    expect(res.body?.code).to.equal('TOKEN_INVALID');
  });

  it('tooManyOpenTickets_refusedWith429', async () => {
    const { token, id } = await ownerWithConversion();
    for (let i = 0; i < CONVERSION_LIMITS.streamTicketsPerUser; i++) await mint(id, token);
    const res = await api(server).post<Err>(`/conversion/updates/${id}/ticket`, undefined, token);
    expect(res.status).to.equal(429);
    expect(res.body.message).to.equal(CONVERSION_MESSAGES.tooManyStreamTickets);
  });

  it('requestLog_neverPrintsATokenOrTicket', async () => {
    const { user, token, id } = await ownerWithConversion();
    const { ticket } = await mint(id, token);
    logLines.length = 0;
    expect((await openStream(id, `?token=${ticket}&x=1`)).status).to.equal(200);
    // Refused long-lived tokens in the query are not printed either.
    await openStream(id, `?token=${encodeURIComponent(token)}`);
    // Download links carry their own token, in the path or the query.
    const done = await buildConversion(server, user, { status: 'completed', aabKey: 'nada.aab', completedAt: new Date() });
    const link = await api(server).post<{ downloadToken: string }>(`/conversion/generate-download-link/${done.id}`, undefined, token);
    expect(link.status).to.equal(200);
    const secret = link.body.downloadToken;
    await fetch(`${server.url}/api/download/file/${secret}`);
    await fetch(`${server.url}/api/conversion/temp-download/${done.id}?token=${secret}`);

    const requests = await waitForLines(() => logLines.filter((l) => l.includes('"msg":"request"')), 5);
    const text = logLines.join('');
    for (const value of [ticket, ticket.slice(4), token, secret]) expect(text).to.not.contain(value);
    const urls = requests.map((l) => (JSON.parse(l) as { url: string }).url);
    expect(urls).to.include(`/api/conversion/updates/${id}?token=[redacted]&x=1`);
    expect(urls).to.include('/api/download/file/[redacted]');
    expect(urls).to.include(`/api/conversion/temp-download/${done.id}?token=[redacted]`);
  });

  it('requestLog_followsTheLevelSetAtRunTime', async () => {
    const { token, id } = await ownerWithConversion();
    const requestLines = () => logLines.filter((l) => l.includes('"msg":"request"'));
    try {
      server.ctx.logger.level = 'warn';
      logLines.length = 0;
      expect((await api(server).get(`/conversion/status/${id}`, token)).status).to.equal(200);
      await api(server).get('/health');
      // A line is written when the answer's connection side closes, just after the client has it.
      await new Promise((r) => setTimeout(r, 200));
      server.ctx.logger.level = 'info';
      expect((await api(server).get(`/conversion/status/${id}`, token)).status).to.equal(200);
      await api(server).get('/health');
      const lines = await waitForLines(requestLines, 1);
      await new Promise((r) => setTimeout(r, 200));
      // Only the status read at info: the one at warn and both health probes (debug) are not logged.
      expect(requestLines().map((l) => (JSON.parse(l) as { url: string; status: number }).url)).to.deep.equal([`/api/conversion/status/${id}`]);
      expect(JSON.parse(lines[0]!)).to.include({ method: 'GET', status: 200, level: 30 });
    } finally {
      server.ctx.logger.level = 'debug';
    }
  });
});

/** The log lines once at least `count` request lines were written (the line follows the answer). */
async function waitForLines(read: () => string[], count: number): Promise<string[]> {
  const deadline = Date.now() + 10000;
  for (;;) {
    const lines = read();
    if (lines.length >= count || Date.now() > deadline) return lines;
    await new Promise((r) => setTimeout(r, 20));
  }
}
