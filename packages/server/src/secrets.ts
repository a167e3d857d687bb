/**
 * Secrets the embedded default needs but the operator did not give: generated once and kept
 * in the data directory (mode 600), so tokens and encrypted settings survive restarts.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface DataDirSecrets {
  jwtSecret: string;
  databasePassword: string;
  /** Key for settings encrypted at rest (AES-256-GCM), base64. */
  encryptionKey: string;
}

export async function loadOrCreateSecrets(dataDir: string): Promise<DataDirSecrets> {
  const file = join(dataDir, 'secrets.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as DataDirSecrets;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secrets: DataDirSecrets = {
    jwtSecret: randomBytes(48).toString('base64url'),
    databasePassword: randomBytes(24).toString('base64url'),
    encryptionKey: randomBytes(32).toString('base64'),
  };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
  return secrets;
}
