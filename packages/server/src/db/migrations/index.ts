import type { Migration } from './types.js';
import { settings } from './0001-settings.js';
import { users } from './0002-users.js';
import { apiTokens } from './0003-api-tokens.js';

/** Every migration, in order. New ones are appended (numbered files in this folder). */
export const migrations: Migration[] = [settings, users, apiTokens];
