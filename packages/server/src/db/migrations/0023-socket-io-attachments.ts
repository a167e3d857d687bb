import type { Migration } from './types.js';

/** The table @socket.io/postgres-adapter uses for payloads too large for NOTIFY. */
export const socketIoAttachments: Migration = {
  name: '0023-socket-io-attachments',
  async up(_qi, sequelize) {
    await sequelize.query(`
      CREATE TABLE IF NOT EXISTS socket_io_attachments (
        id bigserial UNIQUE,
        created_at timestamptz DEFAULT NOW(),
        payload bytea
      )
    `);
  },
  async down(_qi, sequelize) {
    await sequelize.query('DROP TABLE IF EXISTS socket_io_attachments');
  },
};
