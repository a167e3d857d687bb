/**
 * ENCRYPTION_KEY rotation: with ENCRYPTION_KEY_PREVIOUS set, every process still opens what
 * the previous key sealed (settings/crypto.ts openJson), and at start re-encrypts it with the
 * current key — secret settings, upload keystores, Google Play keys and two-factor secrets. Each row is rewritten only if it still
 * holds the ciphertext that was read, so processes starting together do it once and safely.
 * Once a start logs `reencrypted: 0`, ENCRYPTION_KEY_PREVIOUS can be removed (docs/deploy.md).
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Logger } from '../logger.js';
import { keystoreAad } from '../keystores/service.js';
import { playCredentialsAad } from '../play/credentials.js';
import { totpAad } from '../accounts/twoFactor.js';
import { encryptJson, isEncryptedValue, openJson, type KeyRing } from './crypto.js';

interface Sealed {
  table: 'settings' | 'user_keystores' | 'play_credentials' | 'users';
  column: 'value' | 'secret' | 'totpSecret';
  idColumn: 'key' | 'userId' | 'id';
  aad(id: string): string;
}

const SEALED: Sealed[] = [
  { table: 'settings', column: 'value', idColumn: 'key', aad: (key) => key },
  { table: 'user_keystores', column: 'secret', idColumn: 'userId', aad: keystoreAad },
  { table: 'play_credentials', column: 'secret', idColumn: 'userId', aad: playCredentialsAad },
  { table: 'users', column: 'totpSecret', idColumn: 'id', aad: totpAad },
];

/** Returns how many values were re-encrypted; values neither key opens are left alone (and logged). */
export async function reencryptWithCurrentKey(sequelize: Sequelize, keys: KeyRing, logger: Logger): Promise<number> {
  if (!keys.previous) return 0;
  let count = 0;
  for (const s of SEALED) {
    const where = s.table === 'settings' ? 'WHERE encrypted' : `WHERE "${s.column}" IS NOT NULL`;
    const rows = await sequelize.query<{ id: string; sealed: unknown }>(`SELECT "${s.idColumn}"::text AS id, "${s.column}" AS sealed FROM ${s.table} ${where}`, {
      type: QueryTypes.SELECT,
    });
    for (const row of rows) {
      if (!isEncryptedValue(row.sealed)) continue;
      let opened: ReturnType<typeof openJson>;
      try {
        opened = openJson(row.sealed, keys, s.aad(row.id));
      } catch {
        logger.error({ table: s.table, id: s.table === 'settings' ? row.id : undefined }, 'secret opens with neither ENCRYPTION_KEY nor ENCRYPTION_KEY_PREVIOUS');
        continue;
      }
      if (!opened.stale) continue;
      const resealed = encryptJson(opened.value, keys.current, s.aad(row.id));
      const [, changed] = await sequelize.query(
        `UPDATE ${s.table} SET "${s.column}" = CAST(:resealed AS jsonb) WHERE "${s.idColumn}"::text = :id AND "${s.column}" = CAST(:sealed AS jsonb)`,
        { replacements: { resealed: JSON.stringify(resealed), sealed: JSON.stringify(row.sealed), id: row.id }, type: QueryTypes.UPDATE },
      );
      if (Number(changed) > 0) count++;
    }
  }
  logger.info({ reencrypted: count }, 'secrets re-encrypted with the current ENCRYPTION_KEY');
  return count;
}
