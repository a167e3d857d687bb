import { expect } from 'chai';
import { pino } from 'pino';
import { createSequelize } from '../src/db/database.js';
import { createMigrator, migrateUp } from '../src/db/migrate.js';
import { migrations } from '../src/db/migrations/index.js';
import { createTestDatabase } from './helpers/postgres.js';

describe('migrations', () => {
  it('up_onEmptyDatabase_appliesEveryMigrationInOrder', async () => {
    const sequelize = createSequelize(await createTestDatabase(), pino({ level: 'silent' }));
    try {
      const applied = await migrateUp(sequelize);
      expect(applied).to.deep.equal(migrations.map((m) => m.name));
      const tables = (await sequelize.getQueryInterface().showAllTables()).map(String);
      expect(tables).to.include('settings');
      expect(await migrateUp(sequelize)).to.deep.equal([]);
    } finally {
      await sequelize.close();
    }
  });

  it('down_allTheWay_thenUpAgain_leavesSameSchema', async () => {
    const sequelize = createSequelize(await createTestDatabase(), pino({ level: 'silent' }));
    try {
      await migrateUp(sequelize);
      const before = (await sequelize.getQueryInterface().showAllTables()).map(String).sort();
      await createMigrator(sequelize).down({ to: 0 });
      await migrateUp(sequelize);
      const after = (await sequelize.getQueryInterface().showAllTables()).map(String).sort();
      expect(after).to.deep.equal(before);
    } finally {
      await sequelize.close();
    }
  });

  it('names_unique_andNumbered', () => {
    const names = migrations.map((m) => m.name);
    expect(new Set(names).size).to.equal(names.length);
    for (const n of names) expect(n).to.match(/^\d{4}-[a-z0-9-]+$/);
    expect([...names].sort()).to.deep.equal(names);
  });
});
