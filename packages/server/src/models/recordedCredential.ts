/**
 * A credential as a capability's JSONB column `credential` keeps it (accounts/capabilities.ts
 * writes and reads it): what names a session or an API token, never the secret.
 */
export type RecordedCredential =
  | { method: 'jwt'; userId: string; tokenVersion: number; expiresAt?: string; sessionId?: string }
  | { method: 'api_token'; userId: string; apiTokenId: string };
