/**
 * Conversion test helpers: corpus APKs, multipart uploads, socket.io and SSE clients, and
 * waiting for a conversion to reach a status.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io as connect, type Socket } from 'socket.io-client';
import type { ApiConversion, ConversionStatus, ConversionUpdate } from '@aabify/shared';
import { api, type ApiResponse, type JsonBody } from './http.js';
import { recordSecretsIn } from './secretLog.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
export const CORPUS_DIR = process.env.AABIFY_CORPUS ?? join(repoRoot, '..', 'shared', 'corpus');
export const SLOW_ENGINE = fileURLToPath(new URL('../fixtures/slowEngine.ts', import.meta.url));
export const KILLER_ENGINE = fileURLToPath(new URL('../fixtures/killerEngine.ts', import.meta.url));

export function corpusApk(name: string): string {
  return join(CORPUS_DIR, name);
}

/** Skips when the corpus is absent, with the reason printed; fails instead in CI. */
export function requireCorpus(ctx: Mocha.Context): void {
  if (existsSync(join(CORPUS_DIR, 'jx-small.apk'))) return;
  const reason = `corpus de APKs não encontrado em ${CORPUS_DIR} (defina AABIFY_CORPUS)`;
  if (process.env.CI === 'true') throw new Error(reason);
  console.log(`    (pulado: ${reason})`);
  ctx.skip();
}

/** Skips when a command-line tool is missing (Debian's apksigner, java…), with the reason printed; fails instead in CI. */
export function requireTool(ctx: Mocha.Context, command: string, install: string): string {
  const found = (process.env.PATH ?? '').split(':').map((d) => join(d, command)).find((p) => existsSync(p));
  if (found) return found;
  const reason = `${command} não encontrado (${install})`;
  if (process.env.CI === 'true') throw new Error(reason);
  console.log(`    (pulado: ${reason})`);
  ctx.skip();
}

export interface UploadOptions {
  fileName?: string;
  options?: unknown;
  path?: string;
  field?: string;
}

export async function uploadBytes(
  server: { url: string },
  token: string,
  bytes: Uint8Array,
  opts: UploadOptions = {},
): Promise<ApiResponse<JsonBody>> {
  const form = new FormData();
  if (opts.options !== undefined) form.append('options', typeof opts.options === 'string' ? opts.options : JSON.stringify(opts.options));
  form.append(opts.field ?? 'apk', new Blob([new Uint8Array(bytes)], { type: 'application/vnd.android.package-archive' }), opts.fileName ?? 'app.apk');
  return api(server).request('POST', opts.path ?? '/conversion/convert', undefined, { token, raw: form });
}

export async function uploadApk(server: { url: string }, token: string, apkPath: string, opts: UploadOptions = {}): Promise<ApiResponse<JsonBody>> {
  const bytes = await readFile(apkPath);
  return uploadBytes(server, token, bytes, { fileName: opts.fileName ?? apkPath.split('/').pop(), ...opts });
}

export function conversionIdOf(res: ApiResponse<JsonBody>): string {
  const id = res.body.conversionId;
  if (typeof id !== 'string') throw new Error(`no conversionId in ${res.status} ${JSON.stringify(res.body)}`);
  return id;
}

export async function statusOf(server: { url: string }, token: string, id: string): Promise<ApiConversion> {
  const res = await api(server).get<ApiConversion>(`/conversion/status/${id}`, token);
  if (res.status !== 200) throw new Error(`status ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function waitFor<T>(fn: () => Promise<T | undefined> | T | undefined, ms = 30000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function waitForStatus(
  server: { url: string },
  token: string,
  id: string,
  statuses: ConversionStatus[],
  ms = 60000,
): Promise<ApiConversion> {
  return waitFor(
    async () => {
      const c = await statusOf(server, token, id);
      return statuses.includes(c.status) ? c : undefined;
    },
    ms,
    `conversion ${id} to be ${statuses.join('|')}`,
  );
}

export function socketFor(server: { url: string }, token: string | undefined): Socket {
  return connect(server.url, { auth: token ? { token } : {}, transports: ['websocket'], reconnection: false, timeout: 10000 });
}

export async function connected(socket: Socket): Promise<void> {
  if (socket.connected) return;
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
}

/** Emits with an acknowledgement and resolves with the server's answer. */
export async function request<T>(socket: Socket, event: string, payload?: unknown): Promise<T> {
  const answer: unknown = await socket.timeout(5000).emitWithAck(event, payload);
  recordSecretsIn(answer, `socket ${event}`);
  return answer as T;
}

/** Collects the conversion:{id} messages a socket receives. */
export function collect(socket: Socket, conversionId: string): ConversionUpdate[] {
  const seen: ConversionUpdate[] = [];
  socket.on(`conversion:${conversionId}`, (msg: ConversionUpdate) => seen.push(msg));
  return seen;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
