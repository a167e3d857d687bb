/**
 * The session: token and user kept in localStorage (docs/dashboard.md "Stores"). At start a stored token fetches
 * the current user; a failure ends the session. Sign-out clears the token, the user, the
 * conversion-log cache, the last-user marker and the remembered PIX payment (the next person
 * on this browser must not be asked about someone else's payment).
 */
import { create } from 'zustand';
import type { ApiUser } from '@aabify/shared';
import { authApi } from '../api/auth';
import { isApiRequestError } from '../api/client';
import { readJson, readText, write } from './storage';
import { PENDING_PAYMENT_KEY } from '../pages/plans/pendingPayment';

export const TOKEN_KEY = 'aabify-token';
export const USER_KEY = 'aabify-user';
export const LAST_USER_KEY = 'aabify-last-user';
export const CONVERSION_LOGS_KEY = 'conversion-logs-v1';
/** User data counts as fresh for 30 s. */
export const USER_FRESH_MS = 30000;

function isUser(v: unknown): v is ApiUser {
  return typeof v === 'object' && v !== null && typeof (v as ApiUser).id === 'string' && typeof (v as ApiUser).email === 'string';
}

interface SessionState {
  token: string | null;
  user: ApiUser | null;
  /** A stored token whose user has not been confirmed by the server yet. */
  verifying: boolean;
  userFetchedAt: number;
  signIn(token: string, user: ApiUser): void;
  setUser(user: ApiUser): void;
  /** GET /auth/me; ends the session on 401. */
  refreshUser(): Promise<ApiUser | undefined>;
  signOut(): void;
}

/** Counts GET /auth/me requests so that only the latest one writes the user. */
let userRequests = 0;
const storedToken = readText(TOKEN_KEY);

export const useSession = create<SessionState>((set, get) => ({
  token: storedToken,
  user: storedToken ? (readJson(USER_KEY, isUser) ?? null) : null,
  verifying: Boolean(storedToken),
  userFetchedAt: 0,
  signIn: (token, user) => {
    write(TOKEN_KEY, token);
    write(USER_KEY, user);
    set({ token, user, verifying: false, userFetchedAt: Date.now() });
  },
  setUser: (user) => {
    write(USER_KEY, user);
    // The user already shown (the usual answer to the start-up check) keeps its object: the
    // screens reading it do not all render again.
    const shown = get().user;
    const same = shown !== null && JSON.stringify(shown) === JSON.stringify(user);
    set({ user: same ? shown : user, userFetchedAt: Date.now(), verifying: false });
  },
  refreshUser: async () => {
    if (!get().token) return undefined;
    // Answers can arrive out of order (a start-up fetch overtaken by the one after a payment):
    // only the latest request may write the user, or an older answer would bring back old credits.
    const request = ++userRequests;
    try {
      const user = await authApi.me();
      if (!get().token) return undefined;
      if (request === userRequests) get().setUser(user);
      return user;
    } catch (e) {
      if (isApiRequestError(e) && e.status === 401) get().signOut();
      else set({ verifying: false });
      return undefined;
    }
  },
  signOut: () => {
    write(TOKEN_KEY, null);
    write(USER_KEY, null);
    write(CONVERSION_LOGS_KEY, null);
    write(LAST_USER_KEY, null);
    write(PENDING_PAYMENT_KEY, null);
    set({ token: null, user: null, verifying: false, userFetchedAt: 0 });
  },
}));

export const isAdmin = (user: ApiUser | null | undefined): boolean => user?.role === 'admin';
export const ROLE_LABELS = { admin: 'Administrador', user: 'Usuário' } as const;
