/** The SQL a test server sends while something runs: to show what costs a query and what does not. */
import type { AppContext } from '../../src/context.js';

/** The statements matching `tables` that the server sent while `fn` ran. */
export async function queriesDuring(server: { ctx: Pick<AppContext, 'sequelize'> }, tables: RegExp, fn: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const hook = (_options: unknown, query: object) => {
    const sql = (query as { sql?: string }).sql;
    if (sql && tables.test(sql)) seen.push(sql);
  };
  server.ctx.sequelize.addHook('beforeQuery', 'queries-during', hook);
  try {
    await fn();
  } finally {
    server.ctx.sequelize.removeHook('beforeQuery', 'queries-during');
  }
  return seen;
}
