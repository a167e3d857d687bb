import type { Migration } from './types.js';
import { settings } from './0001-settings.js';
import { users } from './0002-users.js';
import { apiTokens } from './0003-api-tokens.js';
import { plans } from './0010-plans.js';
import { purchases } from './0011-purchases.js';
import { payments } from './0012-payments.js';
import { sandboxCharges } from './0013-sandbox-charges.js';
import { conversions } from './0020-conversions.js';
import { conversionLogs } from './0021-conversion-logs.js';
import { downloadTokens } from './0022-download-tokens.js';
import { socketIoAttachments } from './0023-socket-io-attachments.js';
import { userKeystores } from './0030-user-keystores.js';
import { conversionInputFiles } from './0060-conversion-input-files.js';
import { rateLimits } from './0070-rate-limits.js';
import { streamTickets } from './0080-stream-tickets.js';
import { workerInstances } from './0095-worker-instances.js';
import { emailMessages } from './0100-email-messages.js';
import { emailLinkTokens } from './0101-email-link-tokens.js';
import { userEmailFields } from './0102-user-email-fields.js';
import { playCredentials } from './0110-play-credentials.js';
import { publications } from './0111-publications.js';
import { invalidationTriggers } from './0120-invalidation-triggers.js';
import { creditsOwed } from './0130-credits-owed.js';
import { endedSessions } from './0131-ended-sessions.js';
import { jobNames } from './0140-job-names.js';
import { sessions } from './0150-sessions.js';
import { apiTokenScopes } from './0151-api-token-scopes.js';
import { twoFactor } from './0152-two-factor.js';
import { capabilityCredentials } from './0160-capability-credentials.js';
import { emailRecipientIndex } from './0161-email-recipient-index.js';
import { auditEvents } from './0170-audit-events.js';
import { paymentMethods } from './0180-payment-methods.js';
import { testApks } from './0190-test-apks.js';
import { legalDocuments } from './0200-legal-documents.js';
import { dataExports } from './0205-data-exports.js';
import { billingDetails } from './0210-billing-details.js';
import { fiscalNotes } from './0211-fiscal-notes.js';
import { conversionKinds } from './0220-conversion-kinds.js';
import { accountProfile } from './0230-account-profile.js';
import { userCounterChanges } from './0240-user-counter-changes.js';

/** Every migration, in order. New ones are appended (numbered files in this folder). */
export const migrations: Migration[] = [
  settings, users, apiTokens, plans, purchases, payments, sandboxCharges, conversions, conversionLogs, downloadTokens,
  socketIoAttachments, userKeystores, conversionInputFiles, rateLimits, streamTickets, workerInstances, emailMessages,
  emailLinkTokens, userEmailFields,
  playCredentials, publications, invalidationTriggers, creditsOwed, endedSessions,
  jobNames,
  sessions, apiTokenScopes, twoFactor,
  capabilityCredentials, emailRecipientIndex,
  auditEvents,
  paymentMethods,
  testApks,
  legalDocuments,
  dataExports,
  billingDetails, fiscalNotes,
  conversionKinds,
  accountProfile,
  userCounterChanges,
];
