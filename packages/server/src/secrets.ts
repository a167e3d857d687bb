/**
 * The secrets a process signs and encrypts with. Several processes on one database get them
 * from the environment (JWT_SECRET, ENCRYPTION_KEY — config.ts requires them there); the
 * embedded default generates what the operator did not give once into the data directory
 * (mode 600), so tokens and encrypted settings survive restarts.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from './config.js';

export interface DataDirSecrets {
  jwtSecret: string;
  databasePassword: string;
  /** Key for secrets encrypted at rest (AES-256-GCM), base64. */
  encryptionKey: string;
}

/** What the process runs with (ctx.secrets). The previous ones exist only during a rotation (docs/deploy.md). */
export interface ServerSecrets {
  jwtSecret: string;
  jwtSecretPrevious?: string;
  /** AES-256-GCM key of settings and upload keystores, base64. */
  encryptionKey: string;
  encryptionKeyPrevious?: string;
  /** Password of the embedded cluster (absent with DATABASE_URL). */
  databasePassword?: string;
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

/** The environment's secrets first; DATA_DIR/secrets.json only for what the embedded default must generate. */
export async function resolveSecrets(config: Config): Promise<ServerSecrets> {
  const fromEnv = { jwtSecretPrevious: config.jwtSecretPrevious, encryptionKeyPrevious: config.encryptionKeyPrevious };
  if (config.databaseUrl && config.jwtSecret && config.encryptionKey) {
    return { jwtSecret: config.jwtSecret, encryptionKey: config.encryptionKey, ...fromEnv };
  }
  const file = await loadOrCreateSecrets(config.dataDir);
  return {
    jwtSecret: config.jwtSecret ?? file.jwtSecret,
    encryptionKey: config.encryptionKey ?? file.encryptionKey,
    databasePassword: file.databasePassword,
    ...fromEnv,
  };
}
