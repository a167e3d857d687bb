/**
 * Open sockets and event streams do not outlive the rights they were opened
 * with. Each change goes through real HTTP; the socket is a real socket.io client. After the
 * change the socket is closed by the server, a `generate_download_link` sent right after it is
 * not answered with a link, and a new connection with the same credential gets `auth_error`.
 */
import { expect } from 'chai';
import type { Socket } from 'socket.io-client';
import type { CreatedApiTokenResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { DEFAULT_PASSWORD, buildAdmin, buildCreditUser, tokenFor } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { connected, request, socketFor, waitFor } from './helpers/conversions.js';
import type { Conversion, User } from '../src/models/index.js';

type LinkAnswer = { success: boolean; downloadLink?: string; message?: string; code?: string };

function completed(server: TestServer, user: User): Promise<Conversion> {
  return buildConversion(server, user, { status: 'completed', progress: 100, aabKey: 'nada.aab', completedAt: new Date() });
}

/** Everything a socket went through, recorded from the moment it opens. */
function watch(socket: Socket) {
  const seen = { disconnected: false, reason: '', authErrors: [] as Array<{ code?: string }>, links: [] as LinkAnswer[] };
  socket.on('disconnect', (reason) => Object.assign(seen, { disconnected: true, reason }));
  socket.on('auth_error', (e: { code?: string }) => seen.authErrors.push(e));
  socket.on('download_link_response', (a: LinkAnswer) => seen.links.push(a));
  return seen;
}

async function openSocket(server: TestServer, token: string): Promise<{ socket: Socket; seen: ReturnType<typeof watch> }> {
  const socket = socketFor(server, token);
  const seen = watch(socket);
  await connected(socket);
  return { socket, seen };
}

/** A link asked for right after the change: whatever comes back (if anything) is no link. */
async function askLinkRightAfter(socket: Socket, seen: ReturnType<typeof watch>, conversionId: string): Promise<void> {
  const linksBefore = seen.links.length;
  // Already closed: nothing can be sent on it, which is the point.
  const answer = socket.connected
    ? await socket
        .timeout(3000)
        .emitWithAck('generate_download_link', { conversionId })
        .then((a: LinkAnswer) => a)
        .catch(() => undefined)
    : undefined;
  if (answer) expect(answer.success, JSON.stringify(answer)).to.equal(false);
  await waitFor(() => (seen.disconnected ? true : undefined), 10000, 'the server to close the socket');
  expect(seen.links.slice(linksBefore).filter((l) => l.success)).to.deep.equal([]);
}

/** A new socket with the same credential is told so (the dashboard signs out on it). */
async function handshakeRefused(server: TestServer, token: string): Promise<{ code?: string }> {
  const socket = socketFor(server, token);
  try {
    return await new Promise((resolve) => socket.once('auth_error', resolve));
  } finally {
    socket.close();
  }
}

describe('realtime: live connections lose what their user lost', function () {
  this.timeout(60000);
  let server: TestServer;
  let admin: User;
  let adminToken: string;
  const sockets: Socket[] = [];

  before(async () => {
    server = await startTestServer();
    admin = await buildAdmin(server);
    adminToken = tokenFor(server, admin);
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });
  after(async () => {
    await server?.stop();
  });

  async function userWithSocket(): Promise<{ user: User; token: string; conversion: Conversion; socket: Socket; seen: ReturnType<typeof watch> }> {
    const user = await buildCreditUser(server, 3);
    const token = tokenFor(server, user);
    const conversion = await completed(server, user);
    const { socket, seen } = await openSocket(server, token);
    sockets.push(socket);
    // Before the change the socket answers with a link.
    const before = await request<LinkAnswer>(socket, 'generate_download_link', { conversionId: conversion.id });
    expect(before.success).to.equal(true);
    return { user, token, conversion, socket, seen };
  }

  it('deactivate_socketClosedLinkRefusedAndHandshakeRefused', async () => {
    const { user, token, conversion, socket, seen } = await userWithSocket();
    const res = await api(server).patch(`/admin/users/${user.id}/toggle-status`, undefined, adminToken);
    expect(res.status).to.equal(200);
    await askLinkRightAfter(socket, seen, conversion.id);
    expect(seen.reason).to.equal('io server disconnect');
    expect((await handshakeRefused(server, token)).code).to.be.oneOf(['ACCOUNT_DISABLED', 'TOKEN_INVALID']);
  });

  it('delete_socketClosedLinkRefusedAndHandshakeRefused', async () => {
    const { user, token, conversion, socket, seen } = await userWithSocket();
    const res = await api(server).delete(`/admin/users/${user.id}`, adminToken);
    expect(res.status).to.equal(200);
    await askLinkRightAfter(socket, seen, conversion.id);
    expect((await handshakeRefused(server, token)).code).to.equal('TOKEN_INVALID');
  });

  it('passwordChange_socketOfTheOldSessionClosedAndTheNewSessionConnects', async () => {
    const { token, conversion, socket, seen } = await userWithSocket();
    const res = await api(server).patch<{ token: string }>('/auth/change-password', { currentPassword: DEFAULT_PASSWORD, newPassword: 'outra-senha-forte-456' }, token);
    expect(res.status).to.equal(200);
    await askLinkRightAfter(socket, seen, conversion.id);
    expect((await handshakeRefused(server, token)).code).to.equal('TOKEN_INVALID');
    // The session the change handed back works on a new socket.
    const { socket: fresh } = await openSocket(server, res.body.token);
    sockets.push(fresh);
    expect((await request<LinkAnswer>(fresh, 'generate_download_link', { conversionId: conversion.id })).success).to.equal(true);
  });

  it('adminChangesThePassword_socketClosed', async () => {
    const { user, conversion, socket, seen } = await userWithSocket();
    const res = await api(server).patch(`/admin/users/${user.id}/change-password`, { newPassword: 'senha-nova-do-admin-789' }, adminToken);
    expect(res.status).to.equal(200);
    await askLinkRightAfter(socket, seen, conversion.id);
  });

  it('apiTokenRevoked_itsSocketClosedTheSessionSocketStays', async () => {
    const user = await buildCreditUser(server, 3);
    const session = tokenFor(server, user);
    const conversion = await completed(server, user);
    const created = await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name: 'CI' }, session);
    expect(created.status).to.equal(201);
    const viaToken = await openSocket(server, created.body.token);
    const viaSession = await openSocket(server, session);
    sockets.push(viaToken.socket, viaSession.socket);
    expect((await request<LinkAnswer>(viaToken.socket, 'generate_download_link', { conversionId: conversion.id })).success).to.equal(true);

    expect((await api(server).delete(`/auth/tokens/${created.body.id}`, session)).status).to.equal(204);
    await askLinkRightAfter(viaToken.socket, viaToken.seen, conversion.id);
    expect((await handshakeRefused(server, created.body.token)).code).to.equal('TOKEN_INVALID');
    // Only what was revoked closed.
    expect(viaSession.seen.disconnected).to.equal(false);
    expect((await request<LinkAnswer>(viaSession.socket, 'generate_download_link', { conversionId: conversion.id })).success).to.equal(true);
  });

  it('demote_adminSocketInACustomersRoomClosedAndTheReconnectedOneIsRefused', async () => {
    await server.ctx.settings.set('support.adminDownloads', true);
    try {
      const customer = await buildCreditUser(server, 3);
      const theirs = await completed(server, customer);
      const other = await buildAdmin(server);
      const otherToken = tokenFor(server, other);
      const { socket, seen } = await openSocket(server, otherToken);
      sockets.push(socket);
      // Admin-only: another user's conversion, its room and its link.
      expect(await request<{ success: boolean }>(socket, 'subscribe-conversion', { conversionId: theirs.id })).to.include({ success: true });
      expect((await request<LinkAnswer>(socket, 'generate_download_link', { conversionId: theirs.id })).success).to.equal(true);

      const res = await api(server).patch(`/admin/users/${other.id}/demote`, undefined, adminToken);
      expect(res.status).to.equal(200);
      await askLinkRightAfter(socket, seen, theirs.id);
      expect(seen.reason).to.equal('io server disconnect');
      expect(seen.authErrors).to.deep.equal([]); // still signed in: the dashboard reconnects

      // The session still holds, with a customer's rights.
      const { socket: again } = await openSocket(server, otherToken);
      sockets.push(again);
      expect(await request<{ success: boolean }>(again, 'subscribe-conversion', { conversionId: theirs.id })).to.include({ success: false });
      expect((await request<LinkAnswer>(again, 'generate_download_link', { conversionId: theirs.id })).success).to.equal(false);
    } finally {
      await server.ctx.settings.unset('support.adminDownloads');
    }
  });

  it('changeBehindTheHelpersBack_nextSocketRequestRechecksAndIsRefused', async () => {
    // Every request re-reads the account, so even a change no helper announced is seen.
    const { user, conversion, socket, seen } = await userWithSocket();
    await server.ctx.models.User.update({ isActive: false }, { where: { id: user.id } });
    const answer = await request<LinkAnswer>(socket, 'generate_download_link', { conversionId: conversion.id });
    expect(answer).to.include({ success: false, code: 'ACCOUNT_DISABLED' });
    await waitFor(() => (seen.disconnected ? true : undefined), 10000, 'the server to close the socket');
    expect(seen.authErrors.map((e) => e.code)).to.deep.equal(['ACCOUNT_DISABLED']);

    const admin2 = await buildAdmin(server);
    const customer = await buildCreditUser(server, 1);
    const theirs = await completed(server, customer);
    const { socket: adminSocket } = await openSocket(server, tokenFor(server, admin2));
    sockets.push(adminSocket);
    expect(await request<{ success: boolean }>(adminSocket, 'get_conversion_stats', { conversionId: theirs.id })).to.include({ success: true });
    await server.ctx.models.User.update({ role: 'user' }, { where: { id: admin2.id } });
    expect(await request<{ success: boolean }>(adminSocket, 'get_conversion_stats', { conversionId: theirs.id })).to.include({ success: false });
  });

  it('eventStream_endsWhenItsUserIsDeactivated', async () => {
    const user = await buildCreditUser(server, 3);
    const token = tokenFor(server, user);
    const conversion = await buildConversion(server, user, { status: 'pending' });
    const ticket = await api(server).post<{ ticket: string }>(`/conversion/updates/${conversion.id}/ticket`, undefined, token);
    expect(ticket.status).to.equal(201);
    const res = await fetch(`${server.url}/api/conversion/updates/${conversion.id}?token=${ticket.body.ticket}`);
    expect(res.status).to.equal(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).to.contain('retry:');

    expect((await api(server).patch(`/admin/users/${user.id}/toggle-status`, undefined, adminToken)).status).to.equal(200);
    // The server ends the stream: reading reaches its end.
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
    }
  });
});

describe('realtime: an access change on one process closes sockets on another', function () {
  this.timeout(90000);
  let a: TestServer;
  let b: TestServer;

  before(async () => {
    a = await startTestServer();
    b = await startTestServer({ ROLE: 'web' }, { databaseUrl: a.ctx.config.databaseUrl! });
  });
  after(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('deactivatedThroughServerA_socketOnServerBClosed', async () => {
    const admin = await buildAdmin(a);
    const user = await buildCreditUser(a, 3);
    const conversion = await completed(a, user);
    // Each server signs sessions with its own secret: the socket's token is B's.
    const { socket, seen } = await openSocket(b, tokenFor(b, user));
    try {
      expect((await request<LinkAnswer>(socket, 'generate_download_link', { conversionId: conversion.id })).success).to.equal(true);
      expect((await api(a).patch(`/admin/users/${user.id}/toggle-status`, undefined, tokenFor(a, admin))).status).to.equal(200);
      await waitFor(() => (seen.disconnected ? true : undefined), 15000, 'server B to close the socket');
      expect(seen.reason).to.equal('io server disconnect');
      expect((await handshakeRefused(b, tokenFor(b, user))).code).to.be.oneOf(['ACCOUNT_DISABLED', 'TOKEN_INVALID']);
    } finally {
      socket.close();
    }
  });
});
