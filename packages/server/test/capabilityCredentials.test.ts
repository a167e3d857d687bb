/**
 * Capabilities die with their credential: a download link or a stream ticket acts with the
 * credential that minted it and stops working once that credential does — an API token revoked,
 * a session signed out or ended by a password change — on every way it is used (the link's path,
 * temp-download's ?token=, links asked for over a socket).
 */
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { CONVERSION_MESSAGES, type CreatedApiTokenResponse, type DownloadTokenResponse, type StreamTicketResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { DEFAULT_PASSWORD, buildCreditUser } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { connected, request, socketFor } from './helpers/conversions.js';
import type { Conversion, User } from '../src/models/index.js';

type Err = { message: string; code: string };

describe('capabilities die with the credential that minted them', function () {
  this.timeout(60_000);
  let server: TestServer;
  const AAB = Buffer.from('PK\x03\x04 um aab de teste');

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.stop();
  });

  /** A customer signed in through the API (a session with its own id), with a converted AAB. */
  async function signedInOwner(): Promise<{ user: User; session: string; conversion: Conversion }> {
    const user = await buildCreditUser(server, 3);
    const login = await api(server).post<{ token: string }>('/auth/login', { email: user.email, password: DEFAULT_PASSWORD });
    expect(login.status).to.equal(200);
    const conversion = await buildConversion(server, user, { status: 'completed', progress: 100, completedAt: new Date() });
    const aabKey = `testes/${conversion.id}/app.aab`;
    await server.ctx.storage.write(aabKey, Readable.from([AAB]));
    return { user, session: login.body.token, conversion: await conversion.update({ aabKey, aabSize: AAB.length }) };
  }

  async function apiToken(session: string): Promise<CreatedApiTokenResponse> {
    const created = await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name: 'CI' }, session);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body;
  }

  async function mintLink(conversion: Conversion, bearer: string): Promise<DownloadTokenResponse> {
    const res = await api(server).post<DownloadTokenResponse>(`/download/generate-download-token/${conversion.id}`, undefined, bearer);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  }

  /** The link's own path and temp-download's ?token=: both serve the file. */
  async function expectServed(link: DownloadTokenResponse, conversion: Conversion): Promise<void> {
    const res = await fetch(new URL(link.downloadUrl, server.url));
    expect(res.status).to.equal(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(AAB)).to.equal(true);
    expect((await fetch(`${server.url}/api/conversion/temp-download/${conversion.id}?token=${link.downloadToken}`)).status).to.equal(200);
  }

  /** Both ways answer exactly what an unknown link answers. */
  async function expectDead(link: DownloadTokenResponse, conversion: Conversion): Promise<void> {
    for (const path of [new URL(link.downloadUrl, server.url).pathname, `/api/conversion/temp-download/${conversion.id}?token=${link.downloadToken}`]) {
      const res = await api(server).get<Err>(path);
      expect(res.status, path).to.equal(404);
      expect(res.body).to.deep.equal({ code: 'DOWNLOAD_TOKEN_INVALID', message: CONVERSION_MESSAGES.downloadNotFound });
    }
  }

  it('downloadLink_madeWithAnApiToken_failsOnceTheTokenIsRevoked', async () => {
    const { session, conversion } = await signedInOwner();
    const token = await apiToken(session);
    const viaToken = await mintLink(conversion, token.token);
    const viaSession = await mintLink(conversion, session);
    await expectServed(viaToken, conversion);

    expect((await api(server).delete(`/auth/tokens/${token.id}`, session)).status).to.equal(204);
    await expectDead(viaToken, conversion);
    // The session's own link is another credential's: it still works.
    await expectServed(viaSession, conversion);
  });

  it('downloadLink_madeByASession_failsAfterAPasswordChangeEndedIt', async () => {
    const { session, conversion } = await signedInOwner();
    const link = await mintLink(conversion, session);
    await expectServed(link, conversion);

    const changed = await api(server).patch<{ token: string }>('/auth/change-password', { currentPassword: DEFAULT_PASSWORD, newPassword: 'outra-senha-forte-456' }, session);
    expect(changed.status).to.equal(200);
    await expectDead(link, conversion);
    // The session the change handed over mints links that work.
    await expectServed(await mintLink(conversion, changed.body.token), conversion);
  });

  it('downloadLink_madeByASession_failsOnceThatSessionSignsOut_otherSessionsLinksStay', async () => {
    const { user, session, conversion } = await signedInOwner();
    const other = await api(server).post<{ token: string }>('/auth/login', { email: user.email, password: DEFAULT_PASSWORD });
    const mine = await mintLink(conversion, session);
    const theirs = await mintLink(conversion, other.body.token);

    expect((await api(server).post('/auth/logout', undefined, session)).status).to.equal(200);
    await expectDead(mine, conversion);
    await expectServed(theirs, conversion);
  });

  it('downloadLink_askedOverASocket_diesWithTheSocketsApiToken', async () => {
    const { session, conversion } = await signedInOwner();
    const token = await apiToken(session);
    const socket = socketFor(server, token.token);
    try {
      await connected(socket);
      const answer = await request<{ success: boolean } & DownloadTokenResponse>(socket, 'generate_download_link', { conversionId: conversion.id });
      expect(answer.success, JSON.stringify(answer)).to.equal(true);
      await expectServed(answer, conversion);
      expect((await api(server).delete(`/auth/tokens/${token.id}`, session)).status).to.equal(204);
      await expectDead(answer, conversion);
    } finally {
      socket.close();
    }
  });

  it('downloadLink_ownersAccountDeactivated_refused', async () => {
    const { user, session, conversion } = await signedInOwner();
    const link = await mintLink(conversion, session);
    // Deactivation: the account's credentials stop holding; the link with them.
    await user.update({ isActive: false });
    await expectDead(link, conversion);
  });

  it('streamTicket_mintedByASessionThatThenSignsOut_refused', async () => {
    const { session, conversion } = await signedInOwner();
    const minted = await api(server).post<StreamTicketResponse>(`/conversion/updates/${conversion.id}/ticket`, undefined, session);
    expect(minted.status).to.equal(201);
    expect((await api(server).post('/auth/logout', undefined, session)).status).to.equal(200);
    const res = await api(server).get<Err>(`/conversion/updates/${conversion.id}?token=${minted.body.ticket}`);
    expect(res.status).to.equal(401);
    expect(res.body.code).to.equal('TOKEN_INVALID');
  });
});
