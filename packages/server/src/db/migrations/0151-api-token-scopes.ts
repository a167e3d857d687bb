import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * api_tokens.scopes: what each token may do (accountSecurity.ts in @aabify/shared). Tokens made
 * before scopes existed did everything their owner could; they keep every scope a token can
 * have (read, conversions, downloads, publishing), so no pipeline stops at the upgrade, and lose
 * what no token has any more (admin rights, changing the account: accounts/scopes.ts).
 * The invalidation trigger now also fires when scopes change (they never do through the API).
 */
export const apiTokenScopes: Migration = {
  name: '0151-api-token-scopes',
  async up(qi, sequelize) {
    await qi.addColumn('api_tokens', 'scopes', { type: DataTypes.ARRAY(DataTypes.STRING(32)), allowNull: true });
    await sequelize.query(`UPDATE api_tokens SET scopes = ARRAY['read', 'conversions', 'downloads', 'publishing']::varchar(32)[]`);
    await qi.changeColumn('api_tokens', 'scopes', { type: DataTypes.ARRAY(DataTypes.STRING(32)), allowNull: false });
    await sequelize.query('DROP TRIGGER IF EXISTS api_tokens_changed ON api_tokens');
    await sequelize.query(
      `CREATE TRIGGER api_tokens_changed AFTER UPDATE OF "tokenHash", "userId", scopes OR DELETE ON api_tokens
       FOR EACH ROW EXECUTE FUNCTION aabify_row_changed('api-token', 'tokenHash')`,
    );
  },
  async down(qi, sequelize) {
    await sequelize.query('DROP TRIGGER IF EXISTS api_tokens_changed ON api_tokens');
    await sequelize.query(
      `CREATE TRIGGER api_tokens_changed AFTER UPDATE OF "tokenHash", "userId" OR DELETE ON api_tokens
       FOR EACH ROW EXECUTE FUNCTION aabify_row_changed('api-token', 'tokenHash')`,
    );
    await qi.removeColumn('api_tokens', 'scopes');
  },
};
