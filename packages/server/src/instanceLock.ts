/**
 * One server per data directory: a second start on the same directory is refused with a
 * clear message instead of two processes writing the same files and database cluster.
 */
import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export class InstanceLockedError extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(`Já existe um servidor aabify em execução com o diretório de dados ${dataDir} (processo ${pid}). Pare-o antes ou use outro DATA_DIR.`);
    this.name = 'InstanceLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function acquireInstanceLock(dataDir: string): Promise<() => Promise<void>> {
  const file = join(dataDir, 'aabify.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o644);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return async () => {
        await unlink(file).catch(() => undefined);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (pid && pid !== process.pid && isAlive(pid)) throw new InstanceLockedError(dataDir, pid);
      // A stale lock from a process that died: take it over.
      await unlink(file).catch(() => undefined);
    }
  }
  throw new Error(`Não foi possível obter o bloqueio de ${file}`);
}
