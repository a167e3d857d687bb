import type { Migration } from './types.js';

/**
 * The outbox counts what one address received lately before queuing a message a stranger can
 * cause (mail/recipientPolicy.ts): an index on the address, as compared (lower case), and time.
 */
export const emailRecipientIndex: Migration = {
  name: '0161-email-recipient-index',
  async up(_qi, sequelize) {
    await sequelize.query('CREATE INDEX email_messages_recipient_created ON email_messages (lower("to"), "createdAt")');
  },
  async down(_qi, sequelize) {
    await sequelize.query('DROP INDEX email_messages_recipient_created');
  },
};
