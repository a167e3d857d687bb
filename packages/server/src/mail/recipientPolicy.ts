/**
 * Mail that someone other than its recipient can cause — registering a taken address, asking
 * for a password reset, resending a confirmation, a sign-in alert — would let a stranger flood a
 * mailbox from our domain (and spend the domain's sending reputation). Each such kind has a
 * policy here, and the outbox applies it to every message of that kind, whoever queues it:
 *
 * - the same kind to the same address is not queued again within `repeatAfterMs` (the message
 *   already queued or sent says it: a second "someone tried to register" adds nothing, and a
 *   second reset e-mail would revoke the first one's link);
 * - all these kinds together reach one address at most PER_RECIPIENT_PER_HOUR times an hour.
 *
 * A message refused here is simply not queued: the request that caused it answers as always,
 * so the answer tells nobody whether a mail went out.
 */
import type { EmailKind } from '@aabify/shared';

export interface RecipientPolicy {
  /** No second message of this kind to the same address sooner than this. */
  repeatAfterMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Messages of the kinds below, all together, one address receives in an hour at most. */
export const PER_RECIPIENT_PER_HOUR = 5;
export const RECIPIENT_WINDOW_MS = HOUR;

/** The kinds a stranger can cause, and how often each may reach one address. */
export const RECIPIENT_POLICIES: Partial<Record<EmailKind, RecipientPolicy>> = {
  // Anyone can register any address; the welcome goes once per account, the cap still counts it.
  welcome: { repeatAfterMs: 0 },
  // Whoever registered the address can ask again and again.
  verify_email: { repeatAfterMs: 2 * MINUTE },
  // Always the same news: once an hour says it.
  registration_attempt: { repeatAfterMs: HOUR },
  // Anyone can ask for anyone's reset; the link of the message already sent stays valid.
  password_reset: { repeatAfterMs: 2 * MINUTE },
  // A signed-in account names any address as its new one: that address is a stranger's until the link is followed.
  email_change_confirm: { repeatAfterMs: 2 * MINUTE },
};

/** The kinds the per-recipient cap counts. */
export const CAPPED_KINDS = Object.keys(RECIPIENT_POLICIES) as EmailKind[];

/** What was queued lately for one address, per capped kind (messages not failed, within the window). */
export interface RecentMail {
  kind: EmailKind;
  count: number;
  last: Date;
}

/** Why a message is not queued, or null when it may be. */
export function recipientRefusal(kind: EmailKind, recent: RecentMail[], now: Date): 'repeat' | 'cap' | null {
  const policy = RECIPIENT_POLICIES[kind];
  if (!policy) return null;
  const same = recent.find((r) => r.kind === kind);
  if (same && policy.repeatAfterMs > 0 && now.getTime() - same.last.getTime() < policy.repeatAfterMs) return 'repeat';
  const total = recent.reduce((n, r) => n + r.count, 0);
  return total >= PER_RECIPIENT_PER_HOUR ? 'cap' : null;
}
