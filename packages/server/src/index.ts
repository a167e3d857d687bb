export { startServer, type RunningServer, type StartOptions } from './server.js';
export { loadConfig, ConfigError, type Config } from './config.js';
