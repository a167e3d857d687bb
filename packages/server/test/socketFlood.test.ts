/**
 * socket.io floods from many sockets of one address (realtime/addressLimits.ts), with real
 * sockets on loopback: hundreds of sockets of many accounts (each within its own per-user cap),
 * all emitting events as fast as they can; a reconnect loop. Past the address's limits the
 * server refuses from memory with coded pt-BR answers, does no work for what it refuses, and
 * keeps answering everyone else. The figures each test prints are in docs/security.md.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Socket } from 'socket.io-client';
import { CONVERSION_LIMITS, CONVERSION_MESSAGES, SOCKET_EVENTS } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildUser, tokenFor } from './helpers/factories.js';
import { request, socketFor } from './helpers/conversions.js';
import { queriesDuring } from './helpers/queries.js';
import { probeStalls } from './helpers/healthProbe.js';
import { SOCKET_ADDRESS_LIMITS } from '../src/realtime/addressLimits.js';

type Outcome = { socket: Socket; connected: true } | { socket: Socket; connected: false; code: string; message: string };

/** Opens a socket and waits for it to connect or be refused. */
function open(url: string, token: string): Promise<Outcome> {
  const socket = socketFor({ url }, token);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ socket, connected: true }));
    socket.once('connect_error', (err: Error & { data?: { code?: string; message?: string } }) =>
      resolve({ socket, connected: false, code: err.data?.code ?? err.message, message: err.data?.message ?? err.message }),
    );
  });
}

const tally = (codes: string[]) => [...new Set(codes)].map((c) => `${c}×${codes.filter((x) => x === c).length}`).join(' ');

describe('socket.io floods from one address', function () {
  this.timeout(180_000);
  const sockets: Socket[] = [];
  after(() => {
    for (const s of sockets) s.close();
  });

  describe('many sockets of many accounts', () => {
    let server: TestServer;
    let tokens: string[];
    before(async () => {
      // Handshakes are not this part's subject: their rate is raised so every socket gets to the cap.
      server = await startTestServer({}, { socketAddressLimits: { handshakeBurst: 10_000 } });
      // Fifteen accounts, each under its own cap of live connections.
      tokens = await Promise.all(Array.from({ length: 15 }, async () => tokenFor(server, await buildUser(server))));
    });
    after(async () => {
      for (const s of sockets.splice(0)) s.close();
      await server?.stop();
    });

    it('threeHundredSockets_pastTheAddressCapRefusedCoded_closingOneFreesItsSlot', async () => {
      const cap = CONVERSION_LIMITS.liveConnectionsPerAddress;
      const started = performance.now();
      const outcomes: Outcome[] = [];
      // In waves of 50, as a client library reconnecting many tabs would.
      for (let wave = 0; wave < 6; wave++) {
        outcomes.push(...(await Promise.all(Array.from({ length: 50 }, (_, i) => open(server.url, tokens[(wave * 50 + i) % tokens.length]!)))));
      }
      sockets.push(...outcomes.map((o) => o.socket));
      const connected = outcomes.filter((o) => o.connected);
      const refused = outcomes.filter((o): o is Extract<Outcome, { connected: false }> => !o.connected);
      console.log(`      300 sockets from one address in ${Math.round(performance.now() - started)} ms: ${connected.length} connected, refused ${tally(refused.map((r) => r.code))}`);
      expect(connected).to.have.length(cap);
      expect(refused).to.have.length(300 - cap);
      for (const r of refused) {
        expect(r.code).to.equal('TOO_MANY_CONNECTIONS_FROM_ADDRESS');
        expect(r.message).to.equal(CONVERSION_MESSAGES.tooManyConnectionsFromAddress);
      }
      for (const r of refused) r.socket.close();

      // A slot frees when a socket goes.
      connected[0]!.socket.close();
      await new Promise((r) => setTimeout(r, 200));
      const again = await open(server.url, tokens[0]!);
      sockets.push(again.socket);
      expect(again.connected).to.equal(true);
      const over = await open(server.url, tokens[1]!);
      sockets.push(over.socket);
      expect(over.connected).to.equal(false);
    });

    it('hundredSocketsEmittingAsFastAsTheyCan_theAddressBudgetBoundsTheWork_healthAnswers', async () => {
      const live = sockets.filter((s) => s.connected);
      expect(live.length).to.equal(CONVERSION_LIMITS.liveConnectionsPerAddress);
      // Each socket one event after another, never past its own limits (burst 60, 8 in flight):
      // without a budget per address, every one of them would be answered.
      const perSocket = 30;
      const answers: Array<{ success: boolean; code?: string }> = [];
      const probe = probeStalls(server.url, 20);
      const started = performance.now();
      // Each answered event rechecks its credential (one query on users); a refused one does nothing.
      const rechecks = await queriesDuring(server, /FROM "users"/i, async () => {
        await Promise.all(
          live.map(async (socket) => {
            for (let i = 0; i < perSocket; i++) {
              answers.push(await request<{ success: boolean; code?: string }>(socket, SOCKET_EVENTS.unsubscribe, { conversionId: 'x' }));
            }
          }),
        );
      });
      const seconds = (performance.now() - started) / 1000;
      const stalls = await probe.stop();
      const answered = answers.filter((a) => a.success).length;
      const { eventBurst, eventsPerSecond } = SOCKET_ADDRESS_LIMITS;
      console.log(
        `      ${live.length} sockets × ${perSocket} events in ${seconds.toFixed(1)} s: ${answered} answered, ${answers.length - answered} refused (RATE_LIMIT), ` +
          `${rechecks.length} credential rechecks; /api/health ${stalls.healthChecks} answers, worst ${stalls.worstHealthMs} ms, ${stalls.healthFailures} failures`,
      );
      expect(answers).to.have.length(live.length * perSocket);
      expect(answers.filter((a) => !a.success).every((a) => a.code === 'RATE_LIMIT')).to.equal(true);
      // The address's bucket: its burst, plus what it refilled while the flood lasted.
      expect(answered).to.be.at.most(eventBurst + Math.ceil(eventsPerSecond * seconds));
      expect(rechecks.length).to.be.at.most(answered);
      expect(stalls.healthFailures).to.equal(0);
      expect(stalls.healthChecks).to.be.greaterThan(0);
    });
  });

  describe('a reconnect loop', () => {
    let server: TestServer;
    const limits = { handshakeBurst: 20, handshakesPerSecond: 1 };
    before(async () => {
      server = await startTestServer({}, { socketAddressLimits: limits });
    });
    after(async () => {
      await server?.stop();
    });

    it('handshakesPastTheAddressRate_refusedFromMemoryBeforeAnyCredentialIsLookedUp', async () => {
      const token = tokenFor(server, await buildUser(server));
      const codes: string[] = [];
      const started = performance.now();
      for (let i = 0; i < 40; i++) {
        const o = await open(server.url, token);
        codes.push(o.connected ? 'connected' : o.code);
        o.socket.close();
      }
      const seconds = (performance.now() - started) / 1000;
      console.log(`      40 handshakes in ${seconds.toFixed(1)} s (burst ${limits.handshakeBurst}, ${limits.handshakesPerSecond}/s): ${tally(codes)}`);
      const connected = codes.filter((c) => c === 'connected').length;
      expect(connected).to.be.at.least(limits.handshakeBurst);
      expect(connected).to.be.at.most(limits.handshakeBurst + Math.ceil(limits.handshakesPerSecond * seconds));
      expect(codes.filter((c) => c !== 'connected').every((c) => c === 'RATE_LIMIT')).to.equal(true);
      // Past the rate even a made-up API token is not looked up.
      const lookups = await queriesDuring(server, /FROM "api_tokens"/i, async () => {
        const o = await open(server.url, `aab_${randomBytes(32).toString('base64url')}`);
        o.socket.close();
        expect(o.connected ? 'connected' : o.code).to.equal('RATE_LIMIT');
      });
      expect(lookups).to.deep.equal([]);
    });
  });
});
