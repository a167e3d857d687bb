/** E-mails as the admin screens see them (GET /admin/emails). */
import { mixed, object, type InferType } from 'yup';
import type { Pagination } from './paging.js';
import { adminListQueryFields } from './adminSchemas.js';
import { EMAIL_STATUSES, type EmailKind, type EmailStatus } from './emailMessages.js';

export interface AdminEmailJson {
  id: string;
  kind: EmailKind;
  to: string;
  subject: string;
  status: EmailStatus;
  /** Delivery attempts made so far (0 while kept in the outbox without SMTP). */
  attempts: number;
  /** The last delivery error (SMTP answer), never a secret. */
  lastError: string | null;
  userId: string | null;
  createdAt: string;
  sentAt: string | null;
}

export interface AdminEmailListResponse {
  emails: AdminEmailJson[];
  pagination: Pagination;
  /** 'smtp' when SMTP_URL is set; 'outbox' when messages are only kept here. */
  transport: 'smtp' | 'outbox';
  /** The base of the links in e-mails (PUBLIC_URL, or this server's own address). */
  linkBase: string;
  publicUrlSet: boolean;
}

export interface AdminEmailDetail extends AdminEmailJson {
  /** The message as sent, with single-use links (password reset, confirmation) hidden. */
  html: string;
  text: string;
}

/** GET /admin/emails */
export const adminEmailsQuerySchema = object({
  page: adminListQueryFields.page(),
  limit: adminListQueryFields.limit(25),
  /** Recipient or subject. */
  search: adminListQueryFields.search(),
  status: mixed<EmailStatus | 'all'>()
    .transform(adminListQueryFields.emptyToUndefined)
    .oneOf([...EMAIL_STATUSES, 'all', undefined], 'Status inválido')
    .optional(),
});
export type AdminEmailsQuery = InferType<typeof adminEmailsQuerySchema>;
