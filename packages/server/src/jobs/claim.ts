/**
 * How a leased job takes the row it works on (a conversion, a publication): in one transaction
 * holding the row's lock, so two processes never both run it. A row records the instance that
 * runs it (`workerName`) and how many runs it has had (`attempts`):
 *
 * - `queued` → `processing` when the row may start now (capacity, order: `mayStart`);
 * - `processing` again (its job's lock expired, or an orphan sweep released it): while the
 *   instance that runs it still beats, that instance is alive and only its lock touches failed,
 *   so it is left alone (`wait`); otherwise its process died and the row runs again, until it has
 *   had `maxAttempts` runs (`exhausted`: the caller's `exhausted` writes the failure in the same
 *   transaction);
 * - anything else is finished or cancelled (`skip`).
 */
import { QueryTypes, type Model, type Sequelize, type Transaction } from 'sequelize';
import { ServerInstance } from './instances.js';

export interface RunRow extends Model {
  status: string;
  attempts: number;
  workerName: string | null;
}

export type Claim<R> = { kind: 'run'; row: R; resumed: boolean } | { kind: 'wait' } | { kind: 'skip' } | { kind: 'exhausted'; row: R };

export interface ClaimSpec<R extends RunRow> {
  /** A transaction-scoped advisory lock every claim of this kind takes first (capacity checks read other rows). */
  advisoryLock?: number;
  /** The row, locked (FOR NO KEY UPDATE) in `transaction`. */
  load(transaction: Transaction): Promise<R | null>;
  maxAttempts: number;
  /** Whether a queued row may start now (default: yes). */
  mayStart?(row: R, transaction: Transaction): Promise<boolean>;
  /** Written with status, attempts and workerName when a run starts or resumes. */
  startValues(resumed: boolean): Record<string, unknown>;
  /** Writes the failure of a row that has had all its runs. */
  exhausted(row: R, transaction: Transaction): Promise<void>;
}

export interface ClaimDeps {
  sequelize: Sequelize;
  instance: Pick<ServerInstance, 'id' | 'timing'>;
}

/**
 * Claims under one advisory lock take turns in this process before they take a connection: the
 * lock lets one through at a time anyway, and each claim waiting on it in Postgres held a
 * connection of the application pool. A hundred submissions at once made ten claims block the
 * whole pool on the lock while every other request waited for a connection.
 */
const turns = new WeakMap<Sequelize, Map<number, Promise<void>>>();

function inTurn<T>(sequelize: Sequelize, lock: number, fn: () => Promise<T>): Promise<T> {
  let locks = turns.get(sequelize);
  if (!locks) turns.set(sequelize, (locks = new Map()));
  const mine = (locks.get(lock) ?? Promise.resolve()).then(fn);
  const done = mine.then(
    () => undefined,
    () => undefined,
  );
  locks.set(lock, done);
  void done.then(() => {
    if (locks.get(lock) === done) locks.delete(lock);
  });
  return mine;
}

export async function claimRun<R extends RunRow>(deps: ClaimDeps, spec: ClaimSpec<R>): Promise<Claim<R>> {
  const { advisoryLock } = spec;
  return advisoryLock === undefined ? claimNow(deps, spec) : inTurn(deps.sequelize, advisoryLock, () => claimNow(deps, spec));
}

async function claimNow<R extends RunRow>(deps: ClaimDeps, spec: ClaimSpec<R>): Promise<Claim<R>> {
  const { sequelize, instance } = deps;
  return sequelize.transaction(async (transaction): Promise<Claim<R>> => {
    if (spec.advisoryLock !== undefined) await sequelize.query(`SELECT pg_advisory_xact_lock(${spec.advisoryLock})`, { transaction });
    const row = await spec.load(transaction);
    if (!row) return { kind: 'skip' };
    const start = async (resumed: boolean): Promise<Claim<R>> => {
      await row.update({ ...spec.startValues(resumed), status: 'processing', attempts: row.attempts + 1, workerName: instance.id }, { transaction });
      return { kind: 'run', row, resumed };
    };
    if (row.status === 'processing') {
      if (row.workerName && (await ownerAlive(deps, row.workerName, transaction))) return { kind: 'wait' };
      if (row.attempts >= spec.maxAttempts) {
        await spec.exhausted(row, transaction);
        return { kind: 'exhausted', row };
      }
      return start(true);
    }
    if (row.status !== 'queued') return { kind: 'skip' };
    if (spec.mayStart && !(await spec.mayStart(row, transaction))) return { kind: 'wait' };
    return start(false);
  });
}

/** Whether another instance that is still beating runs the row (this one's own leftovers are not alive). */
async function ownerAlive(deps: ClaimDeps, workerName: string, transaction: Transaction): Promise<boolean> {
  if (workerName === deps.instance.id) return false;
  const [row] = await deps.sequelize.query<{ alive: boolean }>(`SELECT ${ServerInstance.aliveSql(':workerName')} AS alive`, {
    replacements: { workerName, staleAfterMs: deps.instance.timing.staleAfterMs },
    transaction,
    type: QueryTypes.SELECT,
  });
  return row?.alive === true;
}
