/**
 * The bulk converter's results, kept while the admin visits other screens (and across a
 * reload of the tab, in sessionStorage): coming back to Conversão em Massa shows them again,
 * still followed live. Cleared on sign-out.
 */
import { create } from 'zustand';
import type { ConversionView } from '../lib/conversion';

export const BULK_ITEMS_KEY = 'aabify-bulk-v1';

function readStored(): ConversionView[] {
  try {
    const raw = sessionStorage.getItem(BULK_ITEMS_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter((c): c is ConversionView => typeof c === 'object' && c !== null && typeof (c as ConversionView).id === 'string') : [];
  } catch {
    return [];
  }
}

function store(items: readonly ConversionView[]): void {
  try {
    if (items.length === 0) sessionStorage.removeItem(BULK_ITEMS_KEY);
    else sessionStorage.setItem(BULK_ITEMS_KEY, JSON.stringify(items));
  } catch {
    /* best effort */
  }
}

interface BulkState {
  items: ConversionView[];
  setItems(update: (items: ConversionView[]) => ConversionView[]): void;
  clear(): void;
}

export const useBulkConversions = create<BulkState>((set, get) => ({
  items: readStored(),
  setItems: (update) => {
    const items = update(get().items);
    store(items);
    set({ items });
  },
  clear: () => {
    store([]);
    set({ items: [] });
  },
}));
