/**
 * The signed-in user's upload keystore as the screens know it: /account/keystore shows and
 * changes it, /converter offers 'Assinar o AAB' only when one is stored. Cleared on sign-out.
 */
import { create } from 'zustand';
import type { KeystoreMetadata } from '@aabify/shared';
import { keystoreApi } from '../api/keystore';

export type KeystoreLoad = 'idle' | 'loading' | 'ready' | 'error';

interface KeystoreState {
  status: KeystoreLoad;
  keystore: KeystoreMetadata | null;
  /** Fetches the metadata (a failure leaves `error`, the screens offer a retry). */
  load(): Promise<void>;
  /**
   * Loads once per session: a user without a key is asked once (the answer is null), not on
   * every visit to the converter. set/clear keep the known state current afterwards.
   */
  ensureLoaded(): Promise<void>;
  set(keystore: KeystoreMetadata | null): void;
  clear(): void;
}

let generation = 0;

export const useKeystore = create<KeystoreState>((set, get) => ({
  status: 'idle',
  keystore: null,
  ensureLoaded: async () => {
    if (get().status === 'idle' || get().status === 'error') await get().load();
  },
  load: async () => {
    const mine = ++generation;
    set((s) => ({ status: s.status === 'ready' ? 'ready' : 'loading' }));
    try {
      const keystore = await keystoreApi.get();
      if (mine === generation) set({ status: 'ready', keystore });
    } catch {
      if (mine === generation) set({ status: 'error' });
    }
  },
  set: (keystore) => {
    generation++;
    set({ status: 'ready', keystore });
  },
  clear: () => {
    generation++;
    set({ status: 'idle', keystore: null });
  },
}));
