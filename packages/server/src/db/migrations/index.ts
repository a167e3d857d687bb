import type { Migration } from './types.js';
import { settings } from './0001-settings.js';

/** Every migration, in order. New ones are appended (numbered files in this folder). */
export const migrations: Migration[] = [settings];
