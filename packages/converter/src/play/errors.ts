/**
 * Google's answers as errors a customer understands: a PLAY_* code with its pt-BR message
 * (@aabify/shared PLAY_ERROR_MESSAGES) and, as `detail`, Google's own words (kept in the
 * publication's logs, never shown instead of ours). Google's error shape is
 * `{ error: { code, message, status, errors: [{ reason, message, domain }] } }`; the token
 * endpoint answers OAuth's `{ error, error_description }`.
 */
import { PLAY_ERROR_MESSAGES, type PlayErrorCode } from '@aabify/shared/play';

/** Which call failed: the same status means different things on different calls. */
export type PlayStage = 'token' | 'edit' | 'upload' | 'track' | 'commit' | 'delete';

export class PlayError extends Error {
  readonly code: PlayErrorCode;
  /** Google's own message (or the transport failure), for logs. */
  readonly detail?: string;
  /** HTTP status Google answered, when it answered. */
  readonly httpStatus?: number;
  readonly reason?: string;
  readonly stage?: PlayStage;

  constructor(code: PlayErrorCode, extra: { detail?: string; httpStatus?: number; reason?: string; stage?: PlayStage } = {}) {
    super(PLAY_ERROR_MESSAGES[code]);
    this.name = 'PlayError';
    this.code = code;
    this.detail = extra.detail;
    this.httpStatus = extra.httpStatus;
    this.reason = extra.reason;
    this.stage = extra.stage;
  }
}

export function isPlayError(e: unknown): e is PlayError {
  return e instanceof PlayError;
}

interface GoogleErrorFacts {
  message: string;
  status?: string;
  reasons: string[];
}

/** Reads either of Google's error shapes; anything else is its text. */
export function googleErrorFacts(body: unknown): GoogleErrorFacts {
  if (typeof body === 'object' && body !== null) {
    const b = body as Record<string, unknown>;
    if (typeof b.error === 'object' && b.error !== null) {
      const e = b.error as Record<string, unknown>;
      const reasons = Array.isArray(e.errors)
        ? e.errors.flatMap((x) => (typeof x === 'object' && x !== null && typeof (x as { reason?: unknown }).reason === 'string' ? [(x as { reason: string }).reason] : []))
        : [];
      return { message: typeof e.message === 'string' ? e.message : '', status: typeof e.status === 'string' ? e.status : undefined, reasons };
    }
    if (typeof b.error === 'string') {
      return { message: typeof b.error_description === 'string' ? `${b.error}: ${b.error_description}` : b.error, reasons: [b.error] };
    }
  }
  return { message: typeof body === 'string' ? body.slice(0, 500) : '', reasons: [] };
}

const QUOTA_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded', 'dailyLimitExceeded']);

/** The PLAY_* error of one failed call. */
export function playErrorFrom(stage: PlayStage, httpStatus: number, body: unknown): PlayError {
  const facts = googleErrorFacts(body);
  const reason = facts.reasons[0];
  const detail = `HTTP ${httpStatus}${facts.status ? ` ${facts.status}` : ''}${reason ? ` (${reason})` : ''}: ${facts.message || 'sem mensagem'}`;
  const make = (code: PlayErrorCode) => new PlayError(code, { detail, httpStatus, reason, stage });
  const m = facts.message;
  const has = (...reasons: string[]) => facts.reasons.some((r) => reasons.includes(r));

  if (httpStatus === 429 || facts.status === 'RESOURCE_EXHAUSTED' || facts.reasons.some((r) => QUOTA_REASONS.has(r))) return make('PLAY_QUOTA_EXCEEDED');
  if (stage === 'token') return make(httpStatus >= 500 ? 'PLAY_UNAVAILABLE' : 'PLAY_AUTH_FAILED');
  if (httpStatus === 401) return make('PLAY_AUTH_FAILED');
  if (httpStatus >= 500) return make('PLAY_UNAVAILABLE');
  if (has('apkUpgradeVersionConflict', 'versionCodeAlreadyUsed') || /version ?code .*(already been used|already used)/i.test(m)) return make('PLAY_VERSION_CODE_USED');
  if (has('apkInvalidSignature', 'bundleInvalidSignature') || /signed with the wrong key|wrong signing key|(apk|bundle) (is|was) not signed/i.test(m)) return make('PLAY_UPLOAD_KEY_MISMATCH');
  if (has('apkIncompatiblePackageName', 'packageNameMismatch') || /package name .*(does not match|mismatch)|wrong package name/i.test(m)) return make('PLAY_PACKAGE_MISMATCH');
  if (/only releases with status draft/i.test(m)) return make('PLAY_DRAFT_APP_ONLY');
  if (stage === 'track' && (httpStatus === 404 || /track .*not found|unknown track|invalid track/i.test(m))) return make('PLAY_TRACK_NOT_FOUND');
  if (has('applicationNotFound') || /package not found|application not found|no application was found/i.test(m)) return make('PLAY_APP_NOT_FOUND');
  if (httpStatus === 404 && stage === 'edit') return make('PLAY_APP_NOT_FOUND');
  if (httpStatus === 403 || facts.status === 'PERMISSION_DENIED' || has('permissionDenied', 'forbidden')) return make('PLAY_PERMISSION_DENIED');
  return make('PLAY_REJECTED');
}

/** No answer at all (DNS, refused, reset, timeout). */
export function playNetworkError(stage: PlayStage, cause: unknown): PlayError {
  const e = cause as { code?: unknown; message?: unknown };
  return new PlayError('PLAY_UNAVAILABLE', { stage, detail: `${typeof e?.code === 'string' ? `${e.code}: ` : ''}${typeof e?.message === 'string' ? e.message : String(cause)}` });
}
