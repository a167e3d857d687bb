import { startTestCluster, stopTestCluster } from './helpers/postgres.js';

/** Mocha root hooks: the test Postgres lives for the whole run. */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120000);
    await startTestCluster();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60000);
    await stopTestCluster();
  },
};
