/**
 * State that belongs to a key (a list's filters, the query it answers, the item shown): it reads
 * as `initial` again as soon as the key changes, without an effect resetting it after a render.
 * The setter of a render writes under that render's key, so an answer that arrives after the key
 * moved on is never shown.
 */
import { useCallback, useState } from 'react';

export function useKeyedState<T>(key: string, initial: T): [T, (value: T) => void] {
  const [held, setHeld] = useState<{ key: string; value: T }>({ key, value: initial });
  const value = held.key === key ? held.value : initial;
  const set = useCallback((next: T) => setHeld({ key, value: next }), [key]);
  return [value, set];
}
