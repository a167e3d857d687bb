/**
 * A small read cache for admin queries (docs/admin.md: the plan list is fresh
 * for 30 s, analytics for 60 s, queries retry once and do not refetch on focus). An answer
 * younger than `freshMs` is served again without a request; concurrent reads of one key share
 * one request; a failed read is tried once more before the error reaches the screen; any change
 * made through the screen invalidates everything, so an edit is never hidden by the cache.
 */
export interface QueryCache<T> {
  read(key: string, fetch: () => Promise<T>): Promise<T>;
  invalidate(): void;
}

export function createQueryCache<T>(freshMs: number, now: () => number = Date.now): QueryCache<T> {
  const answers = new Map<string, { at: number; value: T }>();
  const inFlight = new Map<string, Promise<T>>();
  let generation = 0;
  return {
    read(key, fetch) {
      const cached = answers.get(key);
      if (cached && now() - cached.at < freshMs) return Promise.resolve(cached.value);
      const running = inFlight.get(key);
      if (running) return running;
      const started = generation;
      const request = fetch()
        .catch(() => fetch())
        .then((value) => {
          // An answer to a read made before an invalidation may already be out of date.
          if (started === generation) answers.set(key, { at: now(), value });
          return value;
        })
        .finally(() => {
          if (inFlight.get(key) === request) inFlight.delete(key);
        });
      inFlight.set(key, request);
      return request;
    },
    invalidate() {
      generation++;
      answers.clear();
      inFlight.clear();
    },
  };
}
