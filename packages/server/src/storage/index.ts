/**
 * Where uploaded APKs and produced AABs live. One interface, so the local disk (the default,
 * under DATA_DIR/files) and an S3-compatible store (STORAGE=s3) are interchangeable: routes
 * stream in and out through it, and the engine gets a local file via localCopy().
 */
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { LocalStorage } from './local.js';
import { S3Storage } from './s3.js';
import { ScratchDir, type Storage } from './store.js';

export * from './store.js';

const scratchDirOf = (config: Config) => new ScratchDir(join(config.dataDir, 'tmp'));

export async function createStorage(config: Config, scratch = scratchDirOf(config), logger?: Logger): Promise<Storage> {
  if (config.storage === 's3') {
    if (!config.s3) throw new Error('STORAGE=s3 without its settings');
    return S3Storage.open(config.s3, scratch, logger);
  }
  return new LocalStorage(config.storageDir ?? join(config.dataDir, 'files'), scratch);
}

/** The store of this process, checked (a store that cannot be reached stops the start), with no scratch left from a previous run. */
export async function openStorage(config: Config, logger?: Logger): Promise<Storage> {
  const scratch = scratchDirOf(config);
  const storage = await createStorage(config, scratch, logger);
  await storage.check();
  await scratch.clear();
  return storage;
}
