/**
 * Downloading a conversion's AAB, resumable: bytes go to `<out>.part` (with `<out>.part.json`
 * saying which conversion they belong to); a later run — or a retry after a dropped connection —
 * asks for the rest with a Range request, and only a complete file is renamed to `<out>`.
 * A server that ignores Range (200) simply sends it all again.
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants, createReadStream } from 'node:fs';
import { lstat, mkdir, open, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { ApiClient } from './api/client.js';
import { CliError, EXIT_FAILED, EXIT_NETWORK, networkError } from './api/errors.js';
import type { Output } from './output.js';

export interface DownloadResult {
  path: string;
  bytes: number;
  /** Bytes already on disk from an earlier, interrupted download (0 when it started afresh). */
  resumedFrom: number;
  sha256: string;
}

interface PartMeta {
  conversionId: string;
  etag?: string;
  total?: number;
}

const ATTEMPTS = 3;

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}

/**
 * `<out>.part` and `<out>.part.json` sit beside the output, often in a shared CI workspace: one
 * planted there as a symbolic link (or anything but a plain file) would have the download write
 * through it into another file. Such a path is refused, never followed.
 */
async function assertPlainFileOrAbsent(path: string): Promise<number | undefined> {
  let s;
  try {
    s = await lstat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  if (s.isFile()) return s.size;
  throw new CliError('DOWNLOAD_PATH_UNSAFE', `${path} existe e não é um arquivo comum (um link simbólico?); o download não escreve através dele. Apague-o e rode o comando de novo.`, EXIT_FAILED);
}

/** Opened without following a link at `path` (O_NOFOLLOW), to append or to start afresh. */
async function openPart(path: string, append: boolean): Promise<FileHandle> {
  const flags = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_NOFOLLOW | (append ? fsConstants.O_APPEND : fsConstants.O_TRUNC);
  try {
    return await open(path, flags, 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') await assertPlainFileOrAbsent(path);
    throw e;
  }
}

/** The metadata written to a new file then renamed over the old one: a link at `path` is replaced, never followed. */
async function writeMeta(path: string, meta: PartMeta): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, JSON.stringify(meta), { flag: 'wx' });
  try {
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

async function readMeta(path: string): Promise<PartMeta | undefined> {
  if ((await assertPlainFileOrAbsent(path)) === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(await readFile(path, 'utf8'));
    if (typeof v !== 'object' || v === null) return undefined;
    const r = v as Record<string, unknown>;
    if (typeof r.conversionId !== 'string') return undefined;
    return {
      conversionId: r.conversionId,
      ...(typeof r.etag === 'string' ? { etag: r.etag } : {}),
      ...(typeof r.total === 'number' ? { total: r.total } : {}),
    };
  } catch {
    return undefined;
  }
}

export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

export async function assertWritable(out: string, overwrite: boolean): Promise<void> {
  if (!overwrite && (await sizeOf(out)) !== undefined) {
    throw new CliError('OUTPUT_EXISTS', `O arquivo ${out} já existe; use --overwrite para substituí-lo.`, EXIT_FAILED);
  }
}

/** `bytes 100-999/1000` → { start: 100, total: 1000 }. */
function parseContentRange(value: string | string[] | undefined): { start: number; total?: number } | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  const m = v ? /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(v.trim()) : null;
  if (!m) return undefined;
  return { start: Number(m[1]), ...(m[3] !== '*' ? { total: Number(m[3]) } : {}) };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export async function downloadAab(api: ApiClient, output: Output, conversionId: string, out: string, overwrite: boolean): Promise<DownloadResult> {
  await assertWritable(out, overwrite);
  await mkdir(dirname(out), { recursive: true });
  const part = `${out}.part`;
  const metaPath = `${out}.part.json`;
  let firstResume: number | undefined;

  for (let attempt = 1; ; attempt++) {
    const meta = await readMeta(metaPath);
    const partSize = await assertPlainFileOrAbsent(part);
    let start = meta?.conversionId === conversionId ? (partSize ?? 0) : 0;
    if (start === 0) await rm(part, { force: true });
    if (meta?.total !== undefined && start > meta.total) start = 0;

    const headers: Record<string, string> = {};
    if (start > 0) {
      headers.range = `bytes=${start}-`;
      if (meta?.etag) headers['if-range'] = meta.etag;
    }
    const res = await api.stream(`/conversion/download/${encodeURIComponent(conversionId)}`, {
      headers,
      accept: 'application/octet-stream',
      okStatuses: [200, 206, 416],
    });

    if (res.statusCode === 416) {
      await res.body.dump().catch(() => undefined);
      const total = parseContentRange(res.headers['content-range'])?.total ?? meta?.total;
      if (total !== undefined && total === start) {
        firstResume ??= start;
        return finish(part, metaPath, out, firstResume);
      }
      await rm(part, { force: true });
      if (attempt >= ATTEMPTS) throw new CliError('DOWNLOAD_FAILED', 'O servidor recusou a continuação do download.', EXIT_NETWORK);
      continue;
    }

    let offset = 0;
    let total: number | undefined;
    const length = Number(header(res.headers['content-length']));
    if (res.statusCode === 206) {
      const range = parseContentRange(res.headers['content-range']);
      if (!range || range.start !== start) {
        await res.body.dump().catch(() => undefined);
        await rm(part, { force: true });
        if (attempt >= ATTEMPTS) throw new CliError('DOWNLOAD_FAILED', 'Resposta parcial inesperada do servidor.', EXIT_NETWORK);
        continue;
      }
      offset = start;
      total = range.total ?? (Number.isFinite(length) ? start + length : undefined);
    } else {
      total = Number.isFinite(length) ? length : undefined;
    }
    firstResume ??= offset;
    if (offset > 0) output.info(`Retomando o download a partir de ${offset} bytes.`);
    const etag = header(res.headers.etag);
    const newMeta: PartMeta = { conversionId, ...(etag ? { etag } : {}), ...(total !== undefined ? { total } : {}) };
    await writeMeta(metaPath, newMeta);

    const progress = output.progress('Baixando', total, offset);
    let written = offset;
    // The whole file in this answer: hashed on the way, not read again afterwards.
    const hash = offset === 0 ? createHash('sha256') : undefined;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        written += chunk.length;
        hash?.update(chunk);
        progress.update(written);
        cb(null, chunk);
      },
    });
    const file = await openPart(part, offset > 0).catch(async (e: unknown) => {
      await res.body.dump().catch(() => undefined);
      throw e;
    });
    try {
      await pipeline(res.body, counter, file.createWriteStream());
    } catch (e) {
      progress.finish();
      if (attempt >= ATTEMPTS) {
        const err = networkError(api.baseUrl, e);
        throw new CliError('DOWNLOAD_INTERRUPTED', `Download interrompido (${written} bytes salvos em ${part}); rode o comando de novo para continuar.`, EXIT_NETWORK, err.extra);
      }
      output.warn(`download interrompido em ${written} bytes; tentando continuar.`);
      continue;
    }
    progress.finish();
    if (total !== undefined && written !== total) {
      if (attempt >= ATTEMPTS) throw new CliError('DOWNLOAD_INCOMPLETE', `Download incompleto: ${written} de ${total} bytes.`, EXIT_NETWORK);
      continue;
    }
    return finish(part, metaPath, out, firstResume, hash?.digest('hex'));
  }
}

async function finish(part: string, metaPath: string, out: string, resumedFrom: number, sha256?: string): Promise<DownloadResult> {
  await rename(part, out);
  await rm(metaPath, { force: true });
  const bytes = (await stat(out)).size;
  return { path: out, bytes, resumedFrom, sha256: sha256 ?? (await fileSha256(out)) };
}
