/**
 * Conversions as last committed, from memory while their row is unchanged (no query; see
 * db/notifiedCache.ts), for the reads that present a conversion (GET /status, the most polled
 * route). The table's trigger (migration 0120) drops an entry on every change, in every process.
 */
import type { InferAttributes } from 'sequelize';
import type { Conversion, Models } from '../models/index.js';
import { NotifiedCache, type IoMark } from '../db/notifiedCache.js';
import type { Notifier } from '../db/notifications.js';

/** Conversions kept (least recently read go first), and a safety-net age. */
const MAX_ROWS = 10_000;
const MAX_AGE_MS = 60_000;

export class ConversionRowCache {
  private readonly rows: NotifiedCache<InferAttributes<Conversion>>;

  /** `readModels`: what rows are read through when not in memory (the read lane's, db/readLane.ts). */
  constructor(private readonly deps: { models: Models; notifier: Notifier; readModels: Models }) {
    this.rows = new NotifiedCache(deps.notifier, { topic: 'conversion', max: MAX_ROWS, maxAgeMs: MAX_AGE_MS });
    this.rows.dropOnWrite(deps.models.Conversion, 'id');
  }

  /** The conversion as last committed; a new instance per call. `since`: when the request arrived (db/notifiedCache.ts). */
  async get(id: string, since?: IoMark): Promise<Conversion | null> {
    const { Conversion } = this.deps.models;
    const values = await this.rows.get(id, async () => (await this.deps.readModels.Conversion.findByPk(id))?.get({ plain: true }), since);
    return values ? Conversion.build(values, { isNewRecord: false, raw: true }) : null;
  }
}
