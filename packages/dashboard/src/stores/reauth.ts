/**
 * The "confirme sua senha" prompt (components/ReauthModal.tsx): a sensitive call answered 403
 * REAUTH_REQUIRED asks it (api/client.ts) and waits; calls refused meanwhile wait on the same
 * prompt. Resolves true once the session proved the password (or a code), false if the user
 * closed the prompt.
 */
import { create } from 'zustand';

interface ReauthState {
  open: boolean;
  /** Opens the prompt (or joins the open one). */
  ask(): Promise<boolean>;
  /** The prompt's outcome. */
  finish(proven: boolean): void;
}

let pending: { promise: Promise<boolean>; resolve(proven: boolean): void } | null = null;

export const useReauth = create<ReauthState>((set) => ({
  open: false,
  ask() {
    if (!pending) {
      let resolve!: (proven: boolean) => void;
      const promise = new Promise<boolean>((r) => (resolve = r));
      pending = { promise, resolve };
      set({ open: true });
    }
    return pending.promise;
  },
  finish(proven) {
    const current = pending;
    pending = null;
    set({ open: false });
    current?.resolve(proven);
  },
}));
