import { startTestCluster } from '../helpers/postgres.js';
import { startTestServer } from '../helpers/server.js';
import { ensureDashboardBuilt } from '../helpers/browser.js';
import { SLOW_ENGINE } from '../helpers/conversions.js';
await startTestCluster();
const s = await startTestServer({ DASHBOARD_DIR: ensureDashboardBuilt() }, { conversions: { engine: { module: SLOW_ENGINE, config: { stageDelayMs: 700 } }, claimRetryMs: 200 } });
console.log('URL', s.url);
(globalThis as unknown as { srv: unknown }).srv = s;
setInterval(() => undefined, 1 << 30);
