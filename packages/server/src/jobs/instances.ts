/**
 * This process's identity among all processes on the database: a random id per start
 * (`host:pid:random`, so a restarted process with the same pid is a new instance) and a
 * heartbeat row in `worker_instances`. Conversions record the instance that runs them; one
 * whose instance stopped beating belongs to a dead process and is taken over
 * (jobs/conversions.ts reclaimOrphanedConversions).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Sequelize } from 'sequelize';
import type { Logger } from '../logger.js';

export interface InstanceTiming {
  /** How often the heartbeat row is written. */
  heartbeatMs: number;
  /** An instance silent for this long is dead. */
  staleAfterMs: number;
}

export const DEFAULT_INSTANCE_TIMING: InstanceTiming = { heartbeatMs: 5000, staleAfterMs: 20000 };

/** Rows of instances gone this long are removed. */
const FORGET_AFTER = '1 day';

export class ServerInstance {
  /** Short random part: names this process's database connections (db/connections.ts). */
  readonly short = randomBytes(4).toString('hex');
  /** Recorded on the conversions this process runs (conversions.workerName). */
  readonly id = `${hostname()}:${process.pid}:${this.short}`;
  private timer?: NodeJS.Timeout;
  private beating?: Promise<void>;
  private readonly beatListeners: Array<() => Promise<void>> = [];
  private sequelize?: Sequelize;

  constructor(
    readonly role: string,
    private readonly logger: Logger,
    readonly timing: InstanceTiming = DEFAULT_INSTANCE_TIMING,
  ) {}

  /** Writes the row and starts beating. */
  async start(sequelize: Sequelize): Promise<void> {
    this.sequelize = sequelize;
    await sequelize.query(
      `INSERT INTO worker_instances (id, role, hostname, pid) VALUES (:id, :role, :host, :pid)
       ON CONFLICT (id) DO UPDATE SET "lastSeen" = now()`,
      { replacements: { id: this.id, role: this.role, host: hostname().slice(0, 255), pid: process.pid } },
    );
    this.timer = setInterval(() => {
      this.beating ??= this.beat().finally(() => (this.beating = undefined));
    }, this.timing.heartbeatMs);
    this.timer.unref();
  }

  /** Work done on each beat (a worker's orphan sweep). */
  onBeat(fn: () => Promise<void>): void {
    this.beatListeners.push(fn);
  }

  /** SQL condition: the instance named by `column` beat recently (`:staleAfterMs` replacement). */
  static aliveSql(column: string): string {
    return `EXISTS (SELECT 1 FROM worker_instances w WHERE w.id = ${column} AND w."lastSeen" > now() - make_interval(secs => :staleAfterMs / 1000.0))`;
  }

  private async beat(): Promise<void> {
    const sequelize = this.sequelize!;
    try {
      await sequelize.query(`UPDATE worker_instances SET "lastSeen" = now() WHERE id = :id`, { replacements: { id: this.id } });
      await sequelize.query(`DELETE FROM worker_instances WHERE "lastSeen" < now() - interval '${FORGET_AFTER}'`);
      for (const fn of this.beatListeners) await fn();
    } catch (err) {
      this.logger.warn({ err }, 'instance heartbeat failed');
    }
  }

  /** Stops beating and removes the row (a clean stop: nothing of ours is left to take over). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    await this.sequelize?.query('DELETE FROM worker_instances WHERE id = :id', { replacements: { id: this.id } }).catch(() => undefined);
  }
}
