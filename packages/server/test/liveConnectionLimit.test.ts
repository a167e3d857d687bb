/**
 * Live connections per user: one account cannot hold thousands of silent event streams or
 * sockets open on a process. Past CONVERSION_LIMITS.liveConnectionsPerUser (sockets and streams
 * counted together) an event stream is refused with 429 and a socket with a connect_error, both
 * TOO_MANY_LIVE_CONNECTIONS with the pt-BR message; closing a connection frees its slot. Real
 * HTTP streams and real socket.io clients.
 */
import { expect } from 'chai';
import type { Socket } from 'socket.io-client';
import { CONVERSION_LIMITS, CONVERSION_MESSAGES, type StreamTicketResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildCreditUser, tokenFor } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { connected, socketFor, waitFor } from './helpers/conversions.js';
import type { User } from '../src/models/index.js';

type Refusal = { message: string; code: string; retryAfter?: number };

const CAP = CONVERSION_LIMITS.liveConnectionsPerUser;
const REFUSAL = { message: CONVERSION_MESSAGES.tooManyLiveConnections, code: 'TOO_MANY_LIVE_CONNECTIONS' };

/** An event stream held open (its first chunk read), or the refusal it got. */
interface OpenedStream {
  status: number;
  retryAfterHeader: string | null;
  body?: Refusal;
  close(): void;
}

describe('live connections per user (event streams and sockets)', function () {
  this.timeout(60000);
  let server: TestServer;
  const closers: Array<() => void> = [];

  before(async () => {
    // Many handshakes from this one address within seconds: the per-address handshake rate
    // (socketFlood.test.ts) is raised so the per-user cap is what each test meets.
    server = await startTestServer({}, { socketAddressLimits: { handshakeBurst: 10_000 } });
  });
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });
  after(async () => {
    await server?.stop();
  });

  async function ownerWithConversion(): Promise<{ user: User; token: string; id: string }> {
    const user = await buildCreditUser(server, 3);
    const conversion = await buildConversion(server, user, { status: 'queued' });
    return { user, token: tokenFor(server, user), id: conversion.id };
  }

  const held = (user: User) => server.ctx.liveAccess.connectionsOf(user.id);

  async function openStream(id: string, auth: { bearer: string } | { ticket: string }): Promise<OpenedStream> {
    const controller = new AbortController();
    const query = 'ticket' in auth ? `?token=${auth.ticket}` : '';
    const headers: Record<string, string> = 'bearer' in auth ? { authorization: `Bearer ${auth.bearer}` } : {};
    const res = await fetch(`${server.url}/api/conversion/updates/${id}${query}`, { headers, signal: controller.signal });
    const retryAfterHeader = res.headers.get('retry-after');
    if (res.status !== 200) return { status: res.status, retryAfterHeader, body: (await res.json()) as Refusal, close: () => undefined };
    const reader = res.body!.getReader();
    await reader.read();
    const close = () => {
      controller.abort();
      void reader.cancel().catch(() => undefined);
    };
    closers.push(close);
    return { status: 200, retryAfterHeader, close };
  }

  async function openSocket(token: string): Promise<Socket> {
    const socket = socketFor(server, token);
    closers.push(() => socket.close());
    await connected(socket);
    return socket;
  }

  /** The connect_error a refused handshake gets. */
  async function refusedSocket(token: string): Promise<Error & { data?: Refusal }> {
    const socket = socketFor(server, token);
    closers.push(() => socket.close());
    return new Promise((resolve, reject) => {
      socket.once('connect', () => reject(new Error('the socket over the cap connected')));
      socket.once('connect_error', resolve);
    });
  }

  it('eventStreams_upToTheCap_nextRefused429_closingOneFreesASlot', async () => {
    const { user, token, id } = await ownerWithConversion();
    const streams: OpenedStream[] = [];
    for (let i = 0; i < CAP; i++) {
      const s = await openStream(id, { bearer: token });
      expect(s.status, `stream ${i + 1}`).to.equal(200);
      streams.push(s);
    }
    expect(held(user)).to.equal(CAP);

    const over = await openStream(id, { bearer: token });
    expect(over.status).to.equal(429);
    expect(over.body).to.include(REFUSAL);
    expect(over.body?.retryAfter).to.be.a('number').above(0);
    expect(over.retryAfterHeader).to.equal(String(over.body?.retryAfter));
    // The refused one holds nothing.
    expect(held(user)).to.equal(CAP);

    streams[0].close();
    await waitFor(() => (held(user) === CAP - 1 ? true : undefined), 10000, 'the closed stream to free its slot');
    expect((await openStream(id, { bearer: token })).status).to.equal(200);
    expect((await openStream(id, { bearer: token })).status).to.equal(429);
  });

  it('ticketStream_countsToo_andIsRefusedAtTheCap', async () => {
    const { user, token, id } = await ownerWithConversion();
    for (let i = 0; i < CAP - 1; i++) expect((await openStream(id, { bearer: token })).status).to.equal(200);
    const mint = async () => (await api(server).post<StreamTicketResponse>(`/conversion/updates/${id}/ticket`, undefined, token)).body.ticket;
    expect((await openStream(id, { ticket: await mint() })).status).to.equal(200);
    expect(held(user)).to.equal(CAP);
    const over = await openStream(id, { ticket: await mint() });
    expect(over.status).to.equal(429);
    expect(over.body).to.include(REFUSAL);
  });

  it('sockets_upToTheCap_nextGetsConnectErrorWithTheCodedMessage_closingOneFreesASlot', async () => {
    const { user, token } = await ownerWithConversion();
    const sockets: Socket[] = [];
    for (let i = 0; i < CAP; i++) sockets.push(await openSocket(token));
    expect(held(user)).to.equal(CAP);

    const err = await refusedSocket(token);
    expect(err.message).to.equal(CONVERSION_MESSAGES.tooManyLiveConnections);
    expect(err.data).to.include(REFUSAL);
    // The dashboard signs out on a connect_error that reads like an authentication failure.
    expect(err.message).to.not.match(/auth|token|unauthori[sz]ed|jwt/i);
    expect(held(user)).to.equal(CAP);

    sockets[0].close();
    await waitFor(() => (held(user) === CAP - 1 ? true : undefined), 10000, 'the closed socket to free its slot');
    await openSocket(token);
    expect((await refusedSocket(token)).data?.code).to.equal('TOO_MANY_LIVE_CONNECTIONS');
  });

  it('socketsAndStreams_shareOneCount', async () => {
    const { user, token, id } = await ownerWithConversion();
    for (let i = 0; i < CAP / 2; i++) await openSocket(token);
    for (let i = 0; i < CAP / 2; i++) expect((await openStream(id, { bearer: token })).status).to.equal(200);
    expect(held(user)).to.equal(CAP);
    expect((await openStream(id, { bearer: token })).status).to.equal(429);
    expect((await refusedSocket(token)).data?.code).to.equal('TOO_MANY_LIVE_CONNECTIONS');
  });

  it('oneUserAtTheCap_anotherUserStillConnects', async () => {
    const a = await ownerWithConversion();
    const b = await ownerWithConversion();
    for (let i = 0; i < CAP; i++) await openSocket(a.token);
    expect((await refusedSocket(a.token)).data?.code).to.equal('TOO_MANY_LIVE_CONNECTIONS');
    await openSocket(b.token);
    expect((await openStream(b.id, { bearer: b.token })).status).to.equal(200);
    expect(held(b.user)).to.equal(2);
  });

  it('everyConnectionClosed_noSlotKept', async () => {
    const { user, token, id } = await ownerWithConversion();
    for (let i = 0; i < CAP / 2; i++) await openSocket(token);
    for (let i = 0; i < CAP / 2; i++) await openStream(id, { bearer: token });
    // Refused ones in between hold nothing either.
    await refusedSocket(token);
    await openStream(id, { bearer: token });
    for (const close of closers.splice(0)) close();
    await waitFor(() => (held(user) === 0 ? true : undefined), 10000, 'every slot to be freed');
  });

  it('streamEndedByTheServer_freesItsSlot', async () => {
    // An access change ends the user's streams and sockets (realtime/access.ts); their slots go with them.
    const { user, token, id } = await ownerWithConversion();
    await openSocket(token);
    await openStream(id, { bearer: token });
    expect(held(user)).to.equal(2);
    await user.update({ tokenVersion: user.tokenVersion + 1 });
    await server.ctx.liveAccess.accessChanged(user.id);
    await waitFor(() => (held(user) === 0 ? true : undefined), 10000, 'the ended connections to free their slots');
  });
});
