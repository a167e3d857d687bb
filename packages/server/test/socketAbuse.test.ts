/**
 * Hostile socket.io clients: one polling request carrying thousands of CONNECT packets with
 * made-up API tokens (each was a database lookup), a stream of bad tokens from one address (the
 * per-address limit of bad credentials, as on HTTP), a signed-in socket sending events as fast as
 * it can (each rechecks the credential in the database), and a long-lived token in the URL.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { connect, type Socket } from 'socket.io-client';
import { ACCOUNT_MESSAGES, SOCKET_EVENTS } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildUser, tokenFor } from './helpers/factories.js';
import { connected, socketFor, waitFor } from './helpers/conversions.js';
import { SOCKET_EVENT_LIMITS } from '../src/realtime/socket.js';
import { queriesDuring } from './helpers/queries.js';

const madeUpApiToken = () => `aab_${randomBytes(32).toString('base64url')}`;

describe('hostile socket.io clients', function () {
  this.timeout(120_000);
  let server: TestServer;
  const sockets: Socket[] = [];

  before(async () => {
    // The per-address limits of handshakes and sockets (socketFlood.test.ts) would refuse these
    // floods first; this file is about what each handshake and socket costs past them.
    server = await startTestServer({}, { socketAddressLimits: { handshakeBurst: 10_000, sockets: 10_000, eventBurst: 10_000 } });
  });
  after(async () => {
    for (const s of sockets) s.close();
    await server?.stop();
  });
  beforeEach(() => server.ctx.rateLimits.reset());

  /** How many queries reading API tokens the server sends while `fn` runs. */
  const apiTokenQueriesDuring = async (fn: () => Promise<void>): Promise<number> => (await queriesDuring(server, /FROM "api_tokens"/i, fn)).length;

  it('handshake_oneRequestWithManyConnectPackets_tooLargeOrOneLookupAtATime', async () => {
    const base = `${server.url}/socket.io/?EIO=4&transport=polling`;
    const open = await (await fetch(base)).text();
    const sid = (JSON.parse(open.slice(1)) as { sid: string }).sid;
    const packets = (n: number) => Array.from({ length: n }, () => `40${JSON.stringify({ token: madeUpApiToken() })}`).join('\x1e');
    const send = (body: string) => fetch(`${base}&sid=${sid}`, { method: 'POST', body, headers: { 'content-type': 'text/plain;charset=UTF-8' } });
    // Thousands no longer fit in one request (16 KiB of packets at most)…
    expect((await send(packets(3000))).status).to.equal(413);
    const reopened = await (await fetch(base)).text();
    const sid2 = (JSON.parse(reopened.slice(1)) as { sid: string }).sid;
    // …and the two hundred that do cost one lookup, not two hundred.
    const lookups = await apiTokenQueriesDuring(async () => {
      const post = await fetch(`${base}&sid=${sid2}`, { method: 'POST', body: packets(200), headers: { 'content-type': 'text/plain;charset=UTF-8' } });
      expect(post.status).to.equal(200);
      // The packets after the first are refused at once (connect errors on the next poll); the
      // first one's lookup ends in auth_error.
      const poll = await (await fetch(`${base}&sid=${sid2}`)).text();
      expect(poll.startsWith('44')).to.equal(true);
      await new Promise((r) => setTimeout(r, 500));
    });
    expect(lookups, 'API-token lookups for one request').to.be.at.most(2);
  });

  it('handshake_badTokensFromOneAddress_refusedFromMemoryPastTheLimit', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 125; i++) {
      const socket = connect(server.url, { auth: { token: madeUpApiToken() }, transports: ['websocket'], reconnection: false, timeout: 10000 });
      sockets.push(socket);
      outcomes.push(
        await new Promise<string>((resolve) => {
          socket.once(SOCKET_EVENTS.authError, (e: { code: string }) => resolve(e.code));
          socket.once('connect_error', (err: Error & { data?: { code?: string } }) => resolve(err.data?.code ?? err.message));
        }),
      );
      socket.close();
    }
    expect(outcomes.slice(0, 120).every((o) => o === 'TOKEN_INVALID'), outcomes.slice(0, 120).join(',')).to.equal(true);
    expect(outcomes.slice(120)).to.deep.equal(['RATE_LIMIT', 'RATE_LIMIT', 'RATE_LIMIT', 'RATE_LIMIT', 'RATE_LIMIT']);
    // Past the limit nothing is looked up at all.
    const lookups = await apiTokenQueriesDuring(async () => {
      const socket = connect(server.url, { auth: { token: madeUpApiToken() }, transports: ['websocket'], reconnection: false });
      sockets.push(socket);
      await new Promise((resolve) => socket.once('connect_error', resolve));
      socket.close();
    });
    expect(lookups).to.equal(0);
  });

  it('events_floodFromASignedInSocket_refusedPastTheBurstWithoutWork', async () => {
    const user = await buildUser(server);
    const socket = socketFor(server, tokenFor(server, user));
    sockets.push(socket);
    await connected(socket);
    const answers: Array<{ success: boolean; code?: string; message?: string }> = [];
    const total = SOCKET_EVENT_LIMITS.burst * 4;
    for (let i = 0; i < total; i++) socket.emit(SOCKET_EVENTS.unsubscribe, { conversionId: 'x' }, (a: { success: boolean; code?: string }) => answers.push(a));
    await waitFor(() => (answers.length === total ? true : undefined), 20000, 'every event answered');
    const refused = answers.filter((a) => a.code === 'RATE_LIMIT');
    expect(refused.length).to.be.at.least(total - SOCKET_EVENT_LIMITS.burst - 10);
    expect(refused[0].message).to.equal(ACCOUNT_MESSAGES.tooManyRequests);
    // The socket stays usable once the bucket refills.
    await new Promise((r) => setTimeout(r, 1000));
    const later = await socket.timeout(5000).emitWithAck(SOCKET_EVENTS.unsubscribe, { conversionId: 'x' });
    expect((later as { code?: string }).code).to.not.equal('RATE_LIMIT');
  });

  it('handshake_sessionTokenInTheUrl_notAccepted', async () => {
    const user = await buildUser(server);
    const socket = connect(server.url, { query: { token: tokenFor(server, user) }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    const error = await new Promise<{ code: string }>((resolve) => socket.once(SOCKET_EVENTS.authError, resolve));
    expect(error.code).to.equal('TOKEN_MISSING');
  });
});
