/**
 * What protects an account, as the API's clients see it: the scopes of API tokens, sessions,
 * two-factor sign-in and re-authentication. Free of yup (the CLI imports it at start); the
 * request schemas are in accountSchemas.ts, the texts in securityMessages.ts.
 */
// ---- API token scopes --------------------------------------------------------------------

/**
 * What an API token may do, chosen when it is made (never changed after). A token never has
 * an administrator's rights, and never changes the account (password, e-mail, keys, tokens,
 * two-factor sign-in): those take a session of the dashboard.
 */
export const API_TOKEN_SCOPES = ['read', 'conversions', 'downloads', 'publishing'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export function isApiTokenScope(value: unknown): value is ApiTokenScope {
  return typeof value === 'string' && (API_TOKEN_SCOPES as readonly string[]).includes(value);
}

/**
 * What a route asks of a token. Each scope grants a few of these (API_TOKEN_SCOPE_GRANTS);
 * `any` is granted by every scope (who the token belongs to).
 */
export const API_TOKEN_PERMISSIONS = [
  'account:read',
  'conversions:read',
  'conversions:write',
  'downloads',
  'publications:read',
  'publications:write',
] as const;
export type ApiTokenPermission = (typeof API_TOKEN_PERMISSIONS)[number];

export const API_TOKEN_SCOPE_GRANTS: Readonly<Record<ApiTokenScope, readonly ApiTokenPermission[]>> = {
  /** Everything the account can read: conversions and their logs, plans, purchases, publications, key facts. */
  read: ['account:read', 'conversions:read', 'publications:read'],
  /** Upload, start, cancel, and read its own conversions and their logs and live updates. */
  conversions: ['conversions:read', 'conversions:write'],
  /** Download links and files of the account's conversions. */
  downloads: ['downloads'],
  /** Google Play publications: publish, follow, test the stored key. */
  publishing: ['publications:read', 'publications:write'],
};

/** Whether a token with these scopes has the permission. */
export function scopesGrant(scopes: readonly ApiTokenScope[], permission: ApiTokenPermission | 'any'): boolean {
  if (permission === 'any') return scopes.length > 0;
  return scopes.some((scope) => API_TOKEN_SCOPE_GRANTS[scope].includes(permission));
}

/** The scopes that grant a permission (what a refusal tells the client to ask for). */
export function scopesGranting(permission: ApiTokenPermission): ApiTokenScope[] {
  return API_TOKEN_SCOPES.filter((scope) => API_TOKEN_SCOPE_GRANTS[scope].includes(permission));
}

/** pt-BR names and explanations of the scopes (the token screen, the CLI's help). */
export const API_TOKEN_SCOPE_LABELS: Readonly<Record<ApiTokenScope, { label: string; description: string }>> = {
  read: { label: 'Leitura', description: 'Lê conversões, logs, planos, compras, publicações e os dados públicos das chaves. Não altera nada.' },
  conversions: { label: 'Conversões', description: 'Envia APKs, inicia e cancela conversões, acompanha o andamento e lê os logs.' },
  downloads: { label: 'Downloads', description: 'Gera links e baixa os AABs convertidos.' },
  publishing: { label: 'Publicação', description: 'Publica AABs no Google Play com a chave guardada na conta e acompanha as publicações.' },
};

/**
 * A token made without naming scopes (POST /auth/tokens without `scopes`, and `aabify login`
 * without --scopes): what a build pipeline needs — convert, download, read. Publishing to
 * Google Play is asked for explicitly.
 */
export const API_TOKEN_DEFAULT_SCOPES: readonly ApiTokenScope[] = ['read', 'conversions', 'downloads'];

// ---- Sessions --------------------------------------------------------------------------

/** GET /auth/sessions: one signed-in browser or CLI sign-in. */
export interface SessionJson {
  id: string;
  /** 'Chrome no Windows', 'aabify CLI', 'Dispositivo desconhecido' … (from the user agent). */
  device: string;
  userAgent: string | null;
  /** The client address it signed in from. */
  address: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string;
  /** The session this request came with. */
  current: boolean;
}

export interface SessionListResponse {
  sessions: SessionJson[];
}

/** Sessions kept alive per account; signing in past it ends the oldest. */
export const SESSIONS_PER_USER_MAX = 100;

// ---- Re-authentication -----------------------------------------------------------------

/**
 * How long a password or two-factor proof keeps a session allowed to make sensitive changes
 * (API tokens, upload key, Google Play key, two-factor settings): sign-in counts as one; past
 * it those calls answer 403 REAUTH_REQUIRED until POST /auth/reauth.
 */
export const REAUTH_WINDOW_SECONDS = 10 * 60;

/** POST /auth/reauth */
export interface ReauthResponse {
  message: string;
  /** Until when sensitive changes are allowed without asking again. */
  verifiedUntil: string;
}

// ---- Two-factor sign-in (TOTP) -----------------------------------------------------------

/** Codes of the authenticator app: 6 digits, a new one every 30 s. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Single-use recovery codes made at enrolment (and when regenerated). */
export const RECOVERY_CODE_COUNT = 10;
/** How long the sign-in challenge after the password waits for the code. */
export const TWO_FACTOR_CHALLENGE_SECONDS = 5 * 60;

/**
 * POST /auth/login (and the e-mailed links that sign in) on an account with two-factor
 * sign-in: no session yet, only a challenge to send with the code to POST /auth/login/2fa.
 */
export interface TwoFactorChallengeResponse {
  twoFactorRequired: true;
  challenge: string;
  /** Seconds the challenge stays valid. */
  expiresIn: number;
  message: string;
}

export function isTwoFactorChallenge(body: unknown): body is TwoFactorChallengeResponse {
  return typeof body === 'object' && body !== null && (body as { twoFactorRequired?: unknown }).twoFactorRequired === true;
}

/** GET /auth/2fa */
export interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: string | null;
  /** Unused recovery codes left (0 when disabled). */
  recoveryCodesLeft: number;
  /** accounts.requireAdminTwoFactor applies to this account (an administrator). */
  requiredForAccount: boolean;
}

/** POST /auth/2fa/setup: the secret to add to an authenticator app (enabled only once a code confirms it). */
export interface TwoFactorSetupResponse {
  /** Base32, for typing into the app. */
  secret: string;
  /** otpauth://totp/… */
  otpauthUrl: string;
  /** The same URL as a QR code (data:image/svg+xml). */
  qrCode: string;
}

/** POST /auth/2fa/enable, POST /auth/2fa/recovery-codes: shown once, never again. */
export interface RecoveryCodesResponse {
  message: string;
  recoveryCodes: string[];
}
