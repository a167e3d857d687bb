/**
 * The stored files of a conversion: its folder (uploads, the AAB) and any key recorded outside
 * it. A conversion that ended without an AAB (failed or cancelled) loses its uploads at once:
 * nothing reads them again (only queued and processing conversions run, and a failed or cancelled
 * one never restarts), and its credit is back, so keeping them for the retention period would let
 * one user fill the store by uploading and cancelling. The row keeps the names and sizes for the
 * history, logs and admins; `filesPurgedAt` says the files are gone. A store that refuses leaves
 * them to the retention job (retention.ts), which looks for such rows again.
 */
import type { Logger } from '../logger.js';
import type { Conversion, Models } from '../models/index.js';
import { storageKeys, type Storage } from '../storage/index.js';

export interface ConversionFilesDeps {
  models: Models;
  storage: Storage;
  logger: Logger;
}

export class ConversionFiles {
  constructor(private readonly deps: ConversionFilesDeps) {}

  /** Deletes the uploads of a conversion that ended without an AAB, and records it. */
  async discardInputs(id: string): Promise<void> {
    const c = await this.deps.models.Conversion.findByPk(id);
    if (!c || (c.status !== 'failed' && c.status !== 'cancelled') || c.filesPurgedAt) return;
    try {
      await this.deleteAll(c);
    } catch (err) {
      this.deps.logger.warn({ err, conversionId: id }, 'files of an ended conversion not deleted; the retention job tries again');
      return;
    }
    await this.deps.models.Conversion.update({ filesPurgedAt: new Date() }, { where: { id, filesPurgedAt: null } });
  }

  /** Removes every stored file of the conversion: its folder, and any key recorded outside it. */
  async deleteAll(c: Conversion): Promise<void> {
    const { storage } = this.deps;
    const folder = storageKeys.folder(c.id);
    await storage.deletePrefix(folder);
    for (const key of [...c.inputKeys, c.aabKey]) if (key && !key.startsWith(folder)) await storage.delete(key);
  }
}
