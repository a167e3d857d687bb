import type { Migration } from './types.js';

/**
 * One row per running server process (jobs/instances.ts): a random id per start and a
 * heartbeat. A conversion records the instance that runs it (`conversions.workerName`); once
 * that instance stops beating, a live worker takes the conversion over.
 */
export const workerInstances: Migration = {
  name: '0095-worker-instances',
  async up(_qi, sequelize) {
    await sequelize.query(`
      CREATE TABLE worker_instances (
        id varchar(255) PRIMARY KEY,
        role varchar(16) NOT NULL,
        hostname varchar(255) NOT NULL,
        pid integer NOT NULL,
        "startedAt" timestamptz NOT NULL DEFAULT now(),
        "lastSeen" timestamptz NOT NULL DEFAULT now()
      )
    `);
    await sequelize.query(`CREATE INDEX worker_instances_last_seen ON worker_instances ("lastSeen")`);
  },
  async down(_qi, sequelize) {
    await sequelize.query('DROP TABLE IF EXISTS worker_instances');
  },
};
