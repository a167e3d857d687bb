/**
 * Slow clients against the HTTP server's limits (http/serverLimits.ts), with raw TCP sockets on
 * loopback: headers sent a line at a time (slowloris), an upload body that drips, and an upload
 * that is slow but steady. The server runs with the limits shortened (2 s instead of 20 s and
 * 30 s) so the attacks end in seconds; the figures each test prints are in docs/security.md.
 */
import { expect } from 'chai';
import { ACCOUNT_MESSAGES } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildCreditUser, tokenFor } from './helpers/factories.js';
import { probeStalls } from './helpers/healthProbe.js';
import { dripRequest } from './helpers/slowClient.js';
import type { User } from '../src/models/index.js';

const LIMITS = { headersTimeoutMs: 2_000, checkIntervalMs: 250, bodyProgress: { windowMs: 2_000, minBytes: 4_096 } };

const multipartHead = (boundary: string, fileName: string) =>
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="apk"; filename="${fileName}"\r\nContent-Type: application/vnd.android.package-archive\r\n\r\n`);

function uploadHead(token: string, boundary: string, contentLength: number): Buffer {
  return Buffer.from(
    `POST /api/conversion/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${contentLength}\r\n\r\n`,
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('slow clients against the HTTP server', function () {
  this.timeout(120_000);
  let server: TestServer;
  let user: User;

  before(async () => {
    server = await startTestServer({}, { http: LIMITS });
    user = await buildCreditUser(server, 3);
  });
  after(async () => {
    await server?.stop();
  });

  it('slowlorisHeaders_fiftyConnections_eachClosedWith408_othersServedMeanwhile', async () => {
    const head = Buffer.from('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // A header line every 200 ms for 20 s: never complete unless the server waits that long.
    const drip = Array.from({ length: 100 }, (_, i) => Buffer.from(`X-Lento-${i}: a\r\n`));
    const probe = probeStalls(server.url, 50);
    const exchanges = await Promise.all(Array.from({ length: 50 }, () => dripRequest(server.url, head, drip, 200)));
    const stalls = await probe.stop();
    const closed = exchanges.map((e) => e.closedAfterMs).filter((ms): ms is number => ms !== undefined);
    console.log(
      `      50 slowloris connections (headers timeout ${LIMITS.headersTimeoutMs} ms, checked every ${LIMITS.checkIntervalMs} ms): ` +
        `closed by the server after ${Math.min(...closed)}–${Math.max(...closed)} ms (median ${median(closed)}); ` +
        `/api/health meanwhile ${stalls.healthChecks} answers, worst ${stalls.worstHealthMs} ms, ${stalls.healthFailures} failures`,
    );
    // Every one was closed by the server, before its headers were done, with 408.
    expect(closed).to.have.length(50);
    for (const e of exchanges) expect(e.received).to.match(/^HTTP\/1\.1 408 /);
    expect(stalls.healthFailures).to.equal(0);
    expect(stalls.healthChecks).to.be.greaterThan(0);
  });

  it('uploadBodyDripping_cutWith408RequestTooSlow_nothingStored', async () => {
    const boundary = 'limite-lento';
    const head = multipartHead(boundary, 'lento.apk');
    const declared = 1_000_000;
    const request = Buffer.concat([uploadHead(tokenFor(server, user), boundary, declared), head, Buffer.from('PK\x03\x04')]);
    // 100 bytes every 250 ms (400 B/s): a megabyte would take 40 minutes.
    const drip = Array.from({ length: 200 }, () => Buffer.alloc(100, 0x41));
    const exchange = await dripRequest(server.url, request, drip, 250);
    console.log(`      dripping upload (${LIMITS.bodyProgress.minBytes} B per ${LIMITS.bodyProgress.windowMs} ms required): closed after ${exchange.closedAfterMs} ms, ${exchange.sent} bytes sent`);
    expect(exchange.closedAfterMs, 'closed by the server').to.be.a('number');
    expect(exchange.received).to.match(/^HTTP\/1\.1 408 /);
    const body = JSON.parse(exchange.received.slice(exchange.received.indexOf('\r\n\r\n') + 4)) as { message: string; code: string };
    expect(body).to.deep.equal({ message: ACCOUNT_MESSAGES.requestTooSlow, code: 'REQUEST_TOO_SLOW' });
    // The partial upload left no conversion behind.
    await new Promise((r) => setTimeout(r, 300));
    expect(await server.ctx.models.Conversion.count({ where: { userId: user.id } })).to.equal(0);
  });

  it('uploadSlowButSteady_longerThanAWindow_accepted', async () => {
    const boundary = 'limite-constante';
    const file = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(48 * 1024 - 4, 0x42)]);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([multipartHead(boundary, 'constante.apk'), file, tail]);
    // 4 KiB every 300 ms (about 13 KiB/s): over five seconds in all, more than twice a window.
    const pieces: Buffer[] = [];
    for (let at = 0; at < body.length; at += 4096) pieces.push(body.subarray(at, at + 4096));
    const exchange = await dripRequest(server.url, uploadHead(tokenFor(server, user), boundary, body.length), [...pieces, ...Array<Buffer>(4).fill(Buffer.alloc(0))], 300);
    expect(exchange.received, exchange.received.slice(0, 300)).to.match(/^HTTP\/1\.1 201 /);
  });

  it('headersOverTheSizeLimit_431', async () => {
    const res = await fetch(`${server.url}/api/health`, { headers: { 'x-grande': 'a'.repeat(20 * 1024) } });
    expect(res.status).to.equal(431);
  });
});
