import type { Sequelize, Transaction } from 'sequelize';

/**
 * Takes a transaction-scoped advisory lock named by `key` (hashed to Postgres' lock space): code
 * that checks then writes under the same key runs one at a time, on every process; the lock ends
 * with the transaction.
 */
export async function lockForTransaction(sequelize: Sequelize, key: string, transaction: Transaction): Promise<void> {
  await sequelize.query('SELECT pg_advisory_xact_lock(hashtext(:key))', { replacements: { key }, transaction });
}
