/**
 * `npm run seed:demo`: a demo administrator and a demo user with 10 credits, for trying the
 * product locally. Never run by the server itself. With DATABASE_URL it writes to that
 * database (the server may be running); without it, it opens the embedded database in
 * DATA_DIR, which it can only do while no server holds that directory.
 *
 * Passwords come from DEMO_ADMIN_PASSWORD / DEMO_USER_PASSWORD, or the defaults printed.
 * Existing demo accounts are left as they are.
 */
import { pathToFileURL } from 'node:url';
import { mkdir } from 'node:fs/promises';
import type { Sequelize } from 'sequelize';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { createLogger } from '../logger.js';
import { acquireInstanceLock, InstanceLockedError } from '../instanceLock.js';
import { loadOrCreateSecrets } from '../secrets.js';
import { startEmbeddedPostgres } from '../db/embedded.js';
import { createSequelize } from '../db/database.js';
import { migrateUp } from '../db/migrate.js';
import { initModels, type Models } from '../models/index.js';
import { createUser } from './userCreator.js';

export const DEMO_ADMIN = { email: 'admin@exemplo.com', password: 'admin123', name: 'Administrador Demo' };
export const DEMO_USER = { email: 'usuario@exemplo.com', password: 'usuario123', name: 'Usuário Demo', credits: 10 };

export interface SeedResult {
  email: string;
  password: string;
  role: 'admin' | 'user';
  created: boolean;
}

export async function seedDemo(
  deps: { models: Pick<Models, 'User'> },
  passwords: { admin?: string; user?: string } = {},
): Promise<SeedResult[]> {
  const results: SeedResult[] = [];
  const accounts = [
    { ...DEMO_ADMIN, password: passwords.admin || DEMO_ADMIN.password, role: 'admin' as const, userType: null, credits: 0 },
    { ...DEMO_USER, password: passwords.user || DEMO_USER.password, role: 'user' as const, userType: 'credit' as const },
  ];
  for (const account of accounts) {
    const existing = await deps.models.User.findOne({ where: { email: account.email } });
    if (!existing) await createUser(deps, account);
    results.push({ email: account.email, password: account.password, role: account.role, created: !existing });
  }
  if (results[1].created) {
    await deps.models.User.update({ planActivatedAt: new Date() }, { where: { email: DEMO_USER.email } });
  }
  return results;
}

async function withDatabase<T>(config: Config, fn: (sequelize: Sequelize) => Promise<T>): Promise<T> {
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const cleanups: Array<() => Promise<void>> = [];
  try {
    let url = config.databaseUrl;
    if (!url) {
      await mkdir(config.dataDir, { recursive: true });
      cleanups.push(await acquireInstanceLock(config.dataDir));
      const secrets = await loadOrCreateSecrets(config.dataDir);
      const embedded = await startEmbeddedPostgres({ dir: config.dataDir, port: config.embeddedPgPort, password: secrets.databasePassword, logger });
      cleanups.push(() => embedded.stop());
      url = embedded.url;
    }
    const sequelize = createSequelize(url, logger);
    cleanups.push(() => sequelize.close());
    await migrateUp(sequelize, logger);
    return await fn(sequelize);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  // `npm run seed:demo` at the root runs here in packages/server; a relative DATA_DIR (and
  // the default ./data of `npm start`) means the directory npm was called from.
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  const config = loadConfig();
  const results = await withDatabase(config, (sequelize) =>
    seedDemo({ models: initModels(sequelize) }, { admin: process.env.DEMO_ADMIN_PASSWORD, user: process.env.DEMO_USER_PASSWORD }),
  );
  console.log(`Contas de demonstração (${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}):`);
  for (const r of results) {
    const label = r.role === 'admin' ? 'administrador' : 'usuário (10 créditos)';
    console.log(`  ${label}: ${r.email} / ${r.created ? r.password : '(já existia; senha mantida)'}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof InstanceLockedError) console.error(err.message);
    else console.error(`Falha ao criar as contas de demonstração: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
