import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * Two-factor sign-in (accounts/twoFactor.ts) on the user's row, which every process caches:
 *   totpSecret      the authenticator's secret, encrypted like other secrets (settings/crypto.ts);
 *                   set at enrolment, in use once totpEnabledAt is set;
 *   totpEnabledAt   when a first code confirmed it;
 *   totpLastStep    the time step of the last code accepted: a code is never accepted twice;
 *   recoveryCodes   SHA-256 of the ten single-use recovery codes, with when each was used.
 */
export const twoFactor: Migration = {
  name: '0152-two-factor',
  async up(qi) {
    await qi.addColumn('users', 'totpSecret', { type: DataTypes.JSONB, allowNull: true });
    await qi.addColumn('users', 'totpEnabledAt', { type: DataTypes.DATE, allowNull: true });
    await qi.addColumn('users', 'totpLastStep', { type: DataTypes.INTEGER, allowNull: true });
    await qi.addColumn('users', 'recoveryCodes', { type: DataTypes.JSONB, allowNull: false, defaultValue: [] });
  },
  async down(qi) {
    await qi.removeColumn('users', 'recoveryCodes');
    await qi.removeColumn('users', 'totpLastStep');
    await qi.removeColumn('users', 'totpEnabledAt');
    await qi.removeColumn('users', 'totpSecret');
  },
};
