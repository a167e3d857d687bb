/**
 * A chunk of screens loaded on demand (React.lazy), which can also be loaded ahead. Once its
 * module is here, its screens render without suspending: React.lazy gets a thenable that
 * resolves at once, so no fallback is shown (React 19 keeps a revealed fallback on screen for
 * at least 300 ms, which a chunk that is already loaded would otherwise cost).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

// As React.lazy's own bound: any props.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyComponent = ComponentType<any>;

export interface LazyChunk<M> {
  /** Loads the chunk (once; again after a failure). */
  load(): Promise<M>;
  /** A component of the chunk, rendered through React.lazy. */
  screen<C extends AnyComponent>(pick: (m: M) => C): LazyExoticComponent<C>;
}

export function lazyChunk<M>(importer: () => Promise<M>): LazyChunk<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  const load = () =>
    (loading ??= importer().then(
      (m) => (loaded = m),
      (e: unknown) => {
        loading = undefined;
        throw e;
      },
    ));
  function screen<C extends AnyComponent>(pick: (m: M) => C): LazyExoticComponent<C> {
    return lazy((): Promise<{ default: C }> => {
      if (loaded === undefined) return load().then((m) => ({ default: pick(m) }));
      const ready = { default: pick(loaded) };
      // Resolves synchronously: React.lazy reads it as fulfilled on the first render.
      return { then: (resolve: (v: { default: C }) => void) => resolve(ready) } as unknown as Promise<{ default: C }>;
    });
  }
  return { load, screen };
}
