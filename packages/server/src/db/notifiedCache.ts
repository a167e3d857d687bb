/**
 * A bounded in-memory cache of rows that announce their own changes (database triggers of
 * migration 0120 → db/notifications.ts): a hit costs no query, and any process's write drops
 * the entry on every process when it commits.
 *
 * What keeps it from serving a stale row:
 * - an entry lives until its row's notification arrives (or maxAgeMs, a safety net, passes);
 * - a load that overlapped an invalidation of its key, or of everything, is not stored (it may
 *   have read the row before the change committed); changes to other rows do not matter, so under
 *   a burst of writes to other rows a polled row is still kept;
 * - while the LISTEN connection is down nothing is served from or put in memory, and the whole
 *   cache is dropped when it goes down and again when it is back (the notifier runs every
 *   handler then);
 * - a hit is answered only after the event loop's I/O pending when its request arrived has run
 *   (setImmediate): a notification that reached this process before the request is applied
 *   before the lookup. One such wait serves every later hit of the request (see IoMark).
 * - writes made through this process's models drop their entries here at once (dropOnWrite),
 *   and again when their transaction commits, without waiting for the notification.
 * Rows that carry a version (raised by the database with every update) may announce some
 * changes as patches instead (`patches`): the entry takes the new values when they are newer
 * than its own, so a row whose counters move often stays in memory. Postgres delivers
 * notifications in commit order, and a version never goes back, so an entry only moves forward.
 * Least recently used entries go first beyond `max`.
 */
import type { Model, ModelStatic, Transaction } from 'sequelize';
import type { Notifier } from './notifications.js';

/** What a save's hooks are given: the saved fields, and whether the row came back from the database (RETURNING). */
export interface SaveOptions {
  transaction?: Transaction | null;
  fields?: readonly PropertyKey[];
  returning?: unknown;
}

export interface NotifiedCacheOptions<V> {
  /** The notifier topic whose payload is the key of a changed row. */
  topic: string;
  /** Entries kept at most; the least recently used go first. */
  max: number;
  /** Longest an entry is served without a reload, notification or not. */
  maxAgeMs: number;
  /** Changes announced with their new values (see the top of this file). */
  patches?: NotifiedCachePatches<V>;
}

/** A change to one row that an entry can take without a reload. */
export interface RowPatch<V> {
  key: string;
  /** The row's version after the change. */
  version: number;
  /** The value with the change applied (a new value: entries are never changed in place). */
  apply(value: V): V;
}

export interface NotifiedCachePatches<V> {
  /** The notifier topic whose payload describes a patch. */
  topic: string;
  /** The patch a payload describes; undefined for one it cannot read (everything is dropped then). */
  parse(payload: string): RowPatch<V> | undefined;
  /** The version of the row a value was read from. */
  versionOf(value: V): number;
}

interface Entry<V> {
  value: V;
  at: number;
}

/**
 * A point in this process's event loop, taken when a request arrives (markIo): the request's
 * cache hits are answered once the I/O pending at that point has run. Any wait set up after the
 * mark does that, so only a request's first hit waits (its session and user are looked up
 * together), and its later hits, such as the row the route reads, do not wait another turn of a
 * busy event loop.
 */
export type IoMark = number;

/** Raised by every mark and every wait set up, so a wait knows which marks it serves. */
let ioSequence = 0;
/** Marks up to this one are served: a wait set up after them has run. */
let ioSettledThrough = 0;

export const markIo = (): IoMark => ++ioSequence;

/** Resolves once the I/O pending at `mark` has run; undefined when it already has. */
function ioSettledSince(mark: IoMark): Promise<void> | undefined {
  if (ioSettledThrough >= mark) return undefined;
  const setUpAt = ++ioSequence;
  return new Promise<void>((resolve) =>
    setImmediate(() => {
      ioSettledThrough = Math.max(ioSettledThrough, setUpAt);
      resolve();
    }),
  );
}

export class NotifiedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Raised by every clear(): a load that saw it change is not stored. */
  private generation = 0;
  /** Keys being loaded, and how many loads of each are under way. */
  private readonly loading = new Map<string, number>();
  /** Keys invalidated while a load of theirs was under way: those loads are not stored. */
  private readonly changedWhileLoading = new Set<string>();
  hits = 0;
  misses = 0;

  /** Without a notifier (or while it is not listening) every get loads. */
  constructor(
    private readonly notifier: Notifier | undefined,
    private readonly opts: NotifiedCacheOptions<V>,
  ) {
    notifier?.on(opts.topic, (key) => (key === undefined ? this.clear() : this.delete(key)));
    const patches = opts.patches;
    if (patches) {
      notifier?.on(patches.topic, (payload) => {
        const patch = payload === undefined ? undefined : patches.parse(payload);
        if (patch) this.patch(patch);
        else this.clear();
      });
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The cached value, or load()'s (stored when nothing changed meanwhile); undefined is never
   * stored. `since`: when the request arrived (default now, for a lookup that is not a request's).
   */
  async get(key: string, load: () => Promise<V | undefined>, since: IoMark = markIo()): Promise<V | undefined> {
    if (!this.notifier?.listening) return load();
    if (this.entries.has(key)) {
      const settling = ioSettledSince(since);
      if (settling) await settling;
      const entry = this.entries.get(key);
      if (entry && Date.now() - entry.at < this.opts.maxAgeMs && this.notifier.listening) {
        // Most recently used last: Map keeps insertion order.
        this.entries.delete(key);
        this.entries.set(key, entry);
        this.hits++;
        return entry.value;
      }
    }
    this.misses++;
    const generation = this.generation;
    this.loading.set(key, (this.loading.get(key) ?? 0) + 1);
    let value: V | undefined;
    let changed = false;
    try {
      value = await load();
    } finally {
      changed = this.changedWhileLoading.has(key);
      const left = this.loading.get(key)! - 1;
      if (left > 0) this.loading.set(key, left);
      else {
        this.loading.delete(key);
        this.changedWhileLoading.delete(key);
      }
    }
    if (value !== undefined && !changed && generation === this.generation && this.notifier.listening) this.set(key, value);
    return value;
  }

  /**
   * Writes through `model` in this process drop their rows' entries at once and when their
   * transaction commits (the trigger's notification follows; this only closes the gap for
   * requests this process serves meanwhile). A bulk write drops the keys its `where` names by
   * `keyAttribute`, or everything when it names none. A save that `patchOf` describes is not
   * dropped: its entry keeps the committed values until the commit, then takes the patch.
   */
  dropOnWrite<M extends Model>(model: ModelStatic<M>, keyAttribute: string, patchOf?: (instance: M, options: SaveOptions) => RowPatch<V> | undefined): void {
    const dropNow = (keys: string[] | 'all', transaction: Transaction | null | undefined) => {
      const drop = () => (keys === 'all' ? this.clear() : keys.forEach((k) => this.delete(k)));
      drop();
      transaction?.afterCommit(drop);
    };
    const keyOf = (instance: M) => {
      const value = instance.previous(keyAttribute as keyof M['_attributes']) ?? instance.get(keyAttribute);
      return typeof value === 'string' ? [value] : 'all';
    };
    const keysOfWhere = (where: unknown): string[] | 'all' => {
      const value = where && typeof where === 'object' ? (where as Record<string, unknown>)[keyAttribute] : undefined;
      if (typeof value === 'string') return [value];
      if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
      return 'all';
    };
    model.addHook('afterSave', (instance: M, options: SaveOptions) => {
      const patch = patchOf?.(instance, options);
      if (!patch) return dropNow(keyOf(instance), options.transaction);
      if (options.transaction) options.transaction.afterCommit(() => this.patch(patch));
      else this.patch(patch);
    });
    model.addHook('afterDestroy', (instance: M, options: { transaction?: Transaction | null }) => dropNow(keyOf(instance), options.transaction));
    model.addHook('afterBulkUpdate', (options: { where?: unknown; transaction?: Transaction | null }) => dropNow(keysOfWhere(options.where), options.transaction));
    model.addHook('afterBulkDestroy', (options: { where?: unknown; transaction?: Transaction | null }) => dropNow(keysOfWhere(options.where), options.transaction));
  }

  private set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, at: Date.now() });
    while (this.entries.size > this.opts.max) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Takes a change of the row into its entry, when newer than the entry; a load of the row under way is not stored. */
  patch(patch: RowPatch<V>): void {
    if (this.loading.has(patch.key)) this.changedWhileLoading.add(patch.key);
    const entry = this.entries.get(patch.key);
    if (!entry || !this.opts.patches || this.opts.patches.versionOf(entry.value) >= patch.version) return;
    this.entries.set(patch.key, { value: patch.apply(entry.value), at: entry.at });
  }

  delete(key: string): void {
    if (this.loading.has(key)) this.changedWhileLoading.add(key);
    this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
