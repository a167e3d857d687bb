/**
 * The outbox: every e-mail is a row of `email_messages` first, written in the caller's
 * transaction when there is one (a receipt exists exactly when the approval commits), then
 * delivered by a `mail:send` job over SMTP (SMTP_URL) with retries and exponential backoff.
 * Without SMTP_URL a message stays in the outbox, where admins read it, and one log line
 * names its recipient and subject. Nothing here throws into the request that caused a
 * message: a failure to queue is logged, a failure to deliver is retried, then recorded.
 */
import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { EmailKind } from '@aabify/shared';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { EmailMessage, Models } from '../models/index.js';
import type { JobQueue } from '../jobs/queue.js';
import { enqueueFor } from '../jobs/define.js';
import { JOBS } from '../jobs/names.js';
import { encryptJson, openJson, type KeyRing } from '../settings/crypto.js';
import { messageContent, renderMessage, type RenderedMessage } from './templates.js';
import type { IssuedLink } from './links.js';
import { CAPPED_KINDS, RECIPIENT_POLICIES, RECIPIENT_WINDOW_MS, recipientRefusal, type RecentMail } from './recipientPolicy.js';


export interface OutboxOptions {
  /** First retry delay; each next one doubles (tests shorten it). */
  retryDelayMs?: number;
  /** Delivery attempts before a message is marked failed. */
  maxAttempts?: number;
}

export interface NewMessage {
  kind: EmailKind;
  to: string;
  userId: string | null;
  /** The template's input; never a secret (it is shown to admins). */
  data: Record<string, unknown>;
  /**
   * Makes the message's single-use link, in the message's transaction and only once the message
   * is admitted (a message its recipient policy refuses must not revoke the link already sent).
   * The token is stored encrypted and put in the link only when delivered; its expiry goes in
   * `data.linkExpiresAt`.
   */
  link?: (transaction: Transaction) => Promise<IssuedLink>;
  /** A notice that goes out once: a second message with the same key is not queued. */
  dedupeKey?: string;
  transaction?: Transaction;
}

export interface MailSendJobData {
  emailId: string;
}

/** Queued messages older than this are not sent any more when SMTP arrives (recorded as failed). */
export const OUTBOX_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export const DEFAULT_MAIL_RETRY_DELAY_MS = 30_000;
export const DEFAULT_MAIL_MAX_ATTEMPTS = 6;

export class Outbox {
  readonly transport: 'smtp' | 'outbox';
  readonly retryDelayMs: number;
  readonly maxAttempts: number;
  /** nodemailer's transport, loaded only when SMTP_URL is set (an outbox-only server never loads it). */
  private readonly smtp?: Promise<Transporter>;
  private serverUrl?: string;

  constructor(
    private readonly deps: { config: Config; models: Models; sequelize: Sequelize; logger: Logger; keys: KeyRing; queue: JobQueue },
    opts: OutboxOptions = {},
  ) {
    const { smtpUrl } = deps.config.mail;
    this.transport = smtpUrl ? 'smtp' : 'outbox';
    this.retryDelayMs = opts.retryDelayMs ?? DEFAULT_MAIL_RETRY_DELAY_MS;
    this.maxAttempts = opts.maxAttempts ?? DEFAULT_MAIL_MAX_ATTEMPTS;
    if (smtpUrl) {
      this.smtp = import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport({
          url: smtpUrl,
          connectionTimeout: 15_000,
          greetingTimeout: 15_000,
          socketTimeout: 30_000,
        } as Parameters<typeof nodemailer.createTransport>[0]),
      );
    }
  }

  /** This server's own address, the links' base when PUBLIC_URL is not set. */
  setServerUrl(url: string): void {
    this.serverUrl = url;
  }

  /** Base of every link in e-mails: PUBLIC_URL, else this server's own address (never a request's Host). */
  linkBase(): string {
    return this.deps.config.publicUrl ?? this.serverUrl ?? `http://localhost:${this.deps.config.port}`;
  }

  /**
   * Writes a message (in `transaction` when given, inside a savepoint so a failure here never
   * aborts the caller's work) and, once committed, queues its delivery. A kind a stranger can
   * cause is first held to its recipient policy (mail/recipientPolicy.ts), under a lock on the
   * address so parallel requests cannot pass it together. Answers the id, or null when the policy
   * refused it, a message with the same dedupeKey exists, or writing failed.
   */
  async enqueue(message: NewMessage, now: Date = new Date()): Promise<string | null> {
    const { sequelize, logger } = this.deps;
    const id = randomUUID();
    const subject = messageContent(message.kind, message.data).subject;
    const write = async (transaction: Transaction): Promise<string | null> => {
      if (RECIPIENT_POLICIES[message.kind]) {
        const refusal = recipientRefusal(message.kind, await this.recentMail(message.to, now, transaction), now);
        if (refusal) {
          logger.info({ kind: message.kind, to: message.to, refusal }, 'e-mail not queued: its recipient had this one already or too many this hour');
          return null;
        }
      }
      const link = message.link ? await message.link(transaction) : undefined;
      const data = link ? { ...message.data, linkExpiresAt: link.expiresAt.toISOString() } : message.data;
      const secret = link ? encryptJson(link.token, this.deps.keys.current, `email:${id}`) : null;
      const rows = await sequelize.query<{ id: string }>(
        `INSERT INTO email_messages (id, "userId", kind, "to", subject, data, secret, status, attempts, "dedupeKey", "createdAt", "updatedAt")
         VALUES (:id, :userId, :kind, :to, :subject, CAST(:data AS jsonb), CAST(:secret AS jsonb), 'queued', 0, :dedupeKey, :now, :now)
         ON CONFLICT ("dedupeKey") DO NOTHING RETURNING id`,
        {
          replacements: {
            id,
            userId: message.userId,
            kind: message.kind,
            to: message.to,
            subject,
            data: JSON.stringify(data),
            secret: secret === null ? null : JSON.stringify(secret),
            dedupeKey: message.dedupeKey ?? null,
            now,
          },
          type: QueryTypes.SELECT,
          transaction,
        },
      );
      return rows.length ? id : null;
    };
    let written: string | null;
    try {
      written = await sequelize.transaction(message.transaction ? { transaction: message.transaction } : {}, write);
    } catch (err) {
      logger.error({ err, kind: message.kind, to: message.to, subject }, 'e-mail not queued');
      return null;
    }
    if (!written) return null;
    const after = () => {
      if (this.transport === 'outbox') {
        logger.info({ emailId: id, to: message.to, subject }, 'e-mail kept in the outbox (no SMTP_URL)');
        return;
      }
      void this.schedule(id);
    };
    if (message.transaction) message.transaction.afterCommit(after);
    else after();
    return id;
  }

  /**
   * The capped kinds queued or sent to `to` within the policy's window, read under a lock on the
   * address (held until `transaction` ends).
   */
  private async recentMail(to: string, now: Date, transaction: Transaction): Promise<RecentMail[]> {
    const { sequelize } = this.deps;
    const address = to.trim().toLowerCase();
    await sequelize.query('SELECT pg_advisory_xact_lock(hashtext(:key))', { replacements: { key: `mail-recipient:${address}` }, transaction });
    const rows = await sequelize.query<{ kind: EmailKind; count: string; last: Date }>(
      `SELECT kind, count(*) AS count, max("createdAt") AS last FROM email_messages
        WHERE lower("to") = :address AND kind IN (:kinds) AND status <> 'failed' AND "createdAt" > :since
        GROUP BY kind`,
      { replacements: { address, kinds: CAPPED_KINDS, since: new Date(now.getTime() - RECIPIENT_WINDOW_MS) }, type: QueryTypes.SELECT, transaction },
    );
    return rows.map((r) => ({ kind: r.kind, count: Number(r.count), last: new Date(r.last) }));
  }

  /** Queues the delivery job of a message (one per message). */
  async schedule(emailId: string): Promise<void> {
    if (this.transport === 'outbox') return;
    try {
      await enqueueFor(this.deps.queue, JOBS.mailSend, 'emailId', emailId);
    } catch (err) {
      // The sweep job writes the missing job later.
      this.deps.logger.error({ err, emailId }, 'e-mail delivery job not written; the sweep retries');
    }
  }

  /**
   * One delivery attempt (the `mail:send` job). Throws after a failed attempt that will be
   * retried (Agenda's backoff reschedules the job); records `failed` after the last one.
   */
  async deliver(emailId: string, now: Date = new Date()): Promise<void> {
    const { models, logger } = this.deps;
    const message = await models.EmailMessage.findByPk(emailId);
    if (!message || message.status !== 'queued' || !this.smtp) return;
    const linkExpiresAt = typeof message.data.linkExpiresAt === 'string' ? Date.parse(message.data.linkExpiresAt) : undefined;
    if (linkExpiresAt !== undefined && linkExpiresAt <= now.getTime()) {
      await message.update({ status: 'failed', secret: null, lastError: 'Não enviado: o link do e-mail expirou antes do envio.' });
      logger.warn({ emailId, to: message.to, subject: message.subject }, 'e-mail not sent: its link expired first');
      return;
    }
    let rendered: RenderedMessage;
    try {
      rendered = this.render(message, 'delivery');
    } catch (err) {
      // The link's token no longer opens (the data directory's key changed): it cannot be sent.
      await message.update({ status: 'failed', secret: null, lastError: 'Não enviado: o link do e-mail não pôde ser lido.' });
      logger.error({ emailId, to: message.to, subject: message.subject, err: (err as Error).message }, 'e-mail not sent: its link could not be decrypted');
      return;
    }
    const attempts = message.attempts + 1;
    try {
      await (await this.smtp).sendMail({ from: this.deps.config.mail.from, to: message.to, subject: rendered.subject, html: rendered.html, text: rendered.text });
    } catch (err) {
      const final = attempts >= this.maxAttempts;
      const reason = smtpErrorText(err);
      await message.update({ attempts, lastError: reason, ...(final ? { status: 'failed' as const, secret: null } : {}) });
      logger.warn({ emailId, to: message.to, subject: message.subject, attempt: attempts, final, error: reason }, 'e-mail delivery failed');
      if (final) return;
      throw new Error(`delivery attempt ${attempts} failed: ${reason}`);
    }
    await message.update({ status: 'sent', attempts, sentAt: new Date(), secret: null, lastError: null });
    logger.info({ emailId, to: message.to, subject: message.subject }, 'e-mail sent');
  }

  /** The message as delivered (`delivery`: with its single-use link) or as admins see it (link hidden). */
  render(message: EmailMessage, purpose: 'delivery' | 'admin'): RenderedMessage {
    let secret: string | undefined;
    if (purpose === 'delivery' && message.secret) {
      const value = openJson(message.secret, this.deps.keys, `email:${message.id}`).value;
      if (typeof value === 'string') secret = value;
    }
    return renderMessage(message.kind, message.data, { baseUrl: this.linkBase(), secret });
  }

  /**
   * The safety net (every few minutes and at start): queued messages without a delivery job
   * get one (a crash between commit and scheduling, or SMTP configured after they were kept);
   * queued messages older than a week are recorded as failed instead.
   */
  async sweep(now: Date = new Date()): Promise<{ scheduled: number; expired: number }> {
    if (this.transport === 'outbox') return { scheduled: 0, expired: 0 };
    const { sequelize } = this.deps;
    const cutoff = new Date(now.getTime() - OUTBOX_MAX_AGE_MS);
    const [, expiredCount] = await sequelize.query(
      `UPDATE email_messages SET status = 'failed', secret = NULL, "lastError" = :reason, "updatedAt" = now()
        WHERE status = 'queued' AND "createdAt" < :cutoff`,
      { replacements: { cutoff, reason: 'Não enviado: mais de 7 dias na caixa de saída.' } },
    );
    const rows = await sequelize.query<{ id: string }>(
      `SELECT m.id FROM email_messages m WHERE m.status = 'queued'
         AND NOT EXISTS (SELECT 1 FROM agenda_jobs j WHERE j.name = :name AND j.data->>'emailId' = m.id::text)
       ORDER BY m."createdAt" LIMIT 500`,
      { replacements: { name: JOBS.mailSend }, type: QueryTypes.SELECT },
    );
    for (const r of rows) await this.schedule(r.id);
    return { scheduled: rows.length, expired: typeof expiredCount === 'number' ? expiredCount : 0 };
  }

  async close(): Promise<void> {
    (await this.smtp)?.close();
  }
}

/** The SMTP server's answer (or the network error), short and without anything of ours. */
function smtpErrorText(err: unknown): string {
  if (typeof err === 'object' && err !== null) {
    const e = err as { response?: unknown; code?: unknown; message?: unknown };
    if (typeof e.response === 'string' && e.response) return e.response.slice(0, 500);
    if (typeof e.message === 'string') return `${typeof e.code === 'string' ? `${e.code}: ` : ''}${e.message}`.slice(0, 500);
  }
  return String(err).slice(0, 500);
}
