/**
 * Typed runtime settings over the `settings` table (key → JSONB value, encrypted flag).
 * Secret settings are stored AES-256-GCM encrypted and leave the service only masked (list,
 * entry); `get` returns the plain value for server code. Values are cached per process; a
 * write notifies every process (db/notifications.ts) when it commits, so all drop their cache
 * within moments — the few seconds' expiry is only a safety net for a lost notification.
 */
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { ADMIN_MESSAGES, type AdminConfigEntry } from '@aabify/shared';
import type { Notifier } from '../db/notifications.js';
import { encryptJson, isEncryptedValue, openJson, type KeyRing } from './crypto.js';
import { SETTING_DEFINITIONS, isSettingKey, maskSecret, type SettingKey, type SettingValues } from './definitions.js';

const NOTIFY_TOPIC = 'settings';

/** One setting as the admin screens see it: the shared AdminConfigEntry, keyed by a known key. */
export type SettingEntry = Omit<AdminConfigEntry, 'key' | 'options'> & { key: SettingKey };

/**
 * What the table holds for a key: nothing, a usable value, a secret that does not decrypt
 * (saved under another data dir's encryption key) or a value its definition refuses.
 */
export type StoredSettingState = 'absent' | 'ok' | 'undecryptable' | 'invalid';

export interface SettingsService {
  /** The stored value, else the default; null for a stored secret that does not decrypt (it never falls back). */
  get<K extends SettingKey>(key: K): Promise<SettingValues[K] | null>;
  stored(key: SettingKey): Promise<StoredSettingState>;
  /** Parses an admin's input (throws SettingValueError with a pt-BR message) and stores it. */
  set<K extends SettingKey>(key: K, input: unknown, opts?: { transaction?: Transaction }): Promise<SettingValues[K]>;
  /** Removes the stored value: the default applies again. */
  unset(key: SettingKey): Promise<void>;
  entry(key: SettingKey): Promise<SettingEntry>;
  list(): Promise<SettingEntry[]>;
  invalidate(): void;
  /** Runs after any setting changed, in this process or another (key undefined: possibly any). */
  onChange(listener: (key: SettingKey | undefined) => void): void;
}

interface Row {
  key: string;
  value: unknown;
  encrypted: boolean;
  updatedAt: Date;
}

interface Stored {
  value: unknown;
  updatedAt: Date;
  /** The row is there but its secret does not open. */
  undecryptable?: true;
}

/** Cache lifetime without cross-process notifications, and with them (then only a safety net). */
const CACHE_MS = 5000;
const NOTIFIED_CACHE_MS = 60_000;

export function createSettingsService(opts: {
  sequelize: Sequelize;
  config: Config;
  keys: KeyRing;
  logger: Logger;
  /** Tells the other processes about writes; without it the cache expiry alone applies. */
  notifier?: Notifier;
  cacheMs?: number;
}): SettingsService {
  const { sequelize, config, keys, logger, notifier } = opts;
  const encryptionKey = keys.current;
  const listeners = new Set<(key: SettingKey | undefined) => void>();
  const cacheMs = opts.cacheMs ?? (notifier ? NOTIFIED_CACHE_MS : CACHE_MS);
  let cache: { at: number; rows: Map<string, Stored> } | undefined;
  /** Rows already reported as undecryptable (key@updatedAt): logged once per process, not every read. */
  const reported = new Set<string>();

  function decode(row: Row): unknown {
    if (!row.encrypted) return row.value;
    if (!isEncryptedValue(row.value)) throw new Error(`setting ${row.key} is flagged encrypted but is not`);
    return openJson(row.value, keys, row.key).value;
  }

  async function rows(): Promise<Map<string, Stored>> {
    if (cache && Date.now() - cache.at < cacheMs) return cache.rows;
    const rows = await sequelize.query<Row>('SELECT key, value, encrypted, "updatedAt" FROM settings', { type: QueryTypes.SELECT });
    const map = new Map<string, Stored>();
    for (const row of rows) {
      try {
        map.set(row.key, { value: decode(row), updatedAt: row.updatedAt });
      } catch (err) {
        // A secret that no longer opens (data dir key replaced): kept as such, so no default hides it.
        map.set(row.key, { value: null, updatedAt: row.updatedAt, undecryptable: true });
        const id = `${row.key}@${row.updatedAt.toISOString()}`;
        if (!reported.has(id)) {
          reported.add(id);
          logger.error({ key: row.key, err: (err as Error).message }, 'setting could not be decrypted (saved under another encryption key)');
        }
      }
    }
    cache = { at: Date.now(), rows: map };
    return map;
  }

  async function get<K extends SettingKey>(key: K): Promise<SettingValues[K] | null> {
    const def = SETTING_DEFINITIONS[key];
    const row = (await rows()).get(key);
    if (row?.undecryptable) return null;
    if (row !== undefined) {
      try {
        return def.parse(row.value);
      } catch {
        logger.warn({ key }, 'stored setting is invalid; default used');
      }
    }
    return def.defaultValue(config);
  }

  async function stored(key: SettingKey): Promise<StoredSettingState> {
    const row = (await rows()).get(key);
    if (row === undefined) return 'absent';
    if (row.undecryptable) return 'undecryptable';
    try {
      SETTING_DEFINITIONS[key].parse(row.value);
      return 'ok';
    } catch {
      return 'invalid';
    }
  }

  async function entry(key: SettingKey): Promise<SettingEntry> {
    const def = SETTING_DEFINITIONS[key];
    const row = (await rows()).get(key);
    const value = await get(key);
    const shown = value === null ? null : def.masked ? maskSecret(String(value)) : value;
    return {
      key,
      value: shown,
      title: def.title,
      group: def.group,
      description: def.description,
      help: def.help ?? null,
      recommended: def.recommended ?? null,
      kind: def.kind,
      isSecret: def.masked,
      isSet: value !== null,
      source: row !== undefined ? 'database' : value !== null ? 'default' : 'unset',
      updatedAt: row ? row.updatedAt.toISOString() : null,
      problem: row?.undecryptable ? ADMIN_MESSAGES.settingUnreadable : null,
    };
  }

  function changed(key: SettingKey | undefined): void {
    cache = undefined;
    for (const l of listeners) {
      try {
        l(key);
      } catch (err) {
        logger.warn({ err, key }, 'setting change listener failed');
      }
    }
  }
  notifier?.on(NOTIFY_TOPIC, (payload) => changed(payload && isSettingKey(payload) ? payload : undefined));
  // Without a notifier, a write still reaches this process's listeners.
  const announce = async (key: SettingKey, transaction?: Transaction) => {
    if (notifier) await notifier.notify(NOTIFY_TOPIC, key, transaction);
    else changed(key);
  };

  return {
    get,
    stored,
    entry,
    async list() {
      const keys = Object.keys(SETTING_DEFINITIONS) as SettingKey[];
      return Promise.all(keys.map((key) => entry(key)));
    },
    async set(key, input, setOpts = {}) {
      const def = SETTING_DEFINITIONS[key];
      const value = def.parse(input);
      const json = def.encrypted ? encryptJson(value, encryptionKey, key) : value;
      await sequelize.query(
        `INSERT INTO settings (key, value, encrypted, "createdAt", "updatedAt") VALUES (:key, CAST(:value AS jsonb), :encrypted, now(), now())
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, encrypted = EXCLUDED.encrypted, "updatedAt" = now()`,
        { replacements: { key, value: JSON.stringify(json), encrypted: def.encrypted }, transaction: setOpts.transaction },
      );
      cache = undefined;
      await announce(key, setOpts.transaction);
      logger.info({ key, secret: def.masked }, 'setting changed');
      return value;
    },
    async unset(key) {
      await sequelize.query('DELETE FROM settings WHERE key = :key', { replacements: { key } });
      cache = undefined;
      await announce(key);
    },
    invalidate() {
      cache = undefined;
    },
    onChange(listener) {
      listeners.add(listener);
    },
  };
}
