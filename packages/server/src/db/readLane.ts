/**
 * A lane of its own for the reads every poll of a conversion may need: the queue's snapshot and
 * measured durations (conversions/queueStats.ts), and the rows the notified caches load again
 * after a change (the conversion's row). Through the application pool they queued behind
 * whatever held it: during a burst of a hundred uploads up to 90 queries waited for one of its
 * connections, and a status read paid up to half a second for a 1 ms query. A second lane
 * (POOLS.principals) loads who a request is (sessions, users, API tokens: the principal cache):
 * a burst of new sessions, each first request loading its session and user, queued up to a
 * second on a shared lane, and a status read of a known session waited behind it. A lane runs
 * no transactions and no writes: nothing holds its connections between two statements.
 */
import type { Sequelize } from 'sequelize';
import { QueryTypes } from 'sequelize';
import type { Logger } from '../logger.js';
import { initModels, type Models } from '../models/index.js';
import { createSequelize } from './database.js';
import { POOLS } from './connections.js';

/** Runs one read-only statement and resolves with its rows. */
export type ReadRows = <T extends object>(sql: string) => Promise<T[]>;

export interface ReadLane {
  read: ReadRows;
  /** The models over the lane's connections: for reads only (their hooks and writes belong to the application's models). */
  models: Models;
  /** The lane's own connections (what a test watches to count the lane's queries). */
  sequelize: Sequelize;
  close(): Promise<void>;
}

export function openReadLane(databaseUrl: string, logger: Logger, applicationName?: string, poolMax: number = POOLS.reads): ReadLane {
  const sequelize: Sequelize = createSequelize(databaseUrl, logger, { poolMax, applicationName });
  return {
    read: <T extends object>(sql: string) => sequelize.query<T>(sql, { type: QueryTypes.SELECT }),
    models: initModels(sequelize),
    sequelize,
    close: () => sequelize.close(),
  };
}
