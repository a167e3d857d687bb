import type { Migration } from './types.js';

/**
 * audit_events: the append-only audit trail (audit/recorder.ts, docs/security.md). Rows are only
 * ever inserted. A trigger refuses every UPDATE, TRUNCATE and DELETE, except the retention job's
 * deletion (audit/retention.ts): a transaction that names its retention period in the session
 * setting `aabify.audit_retention_days` may delete rows older than that period, and only those;
 * a period under the setting's minimum (30 days) deletes nothing. No foreign key: an event
 * outlives whatever it names.
 */
export const auditEvents: Migration = {
  name: '0170-audit-events',
  async up(_qi, sequelize) {
    await sequelize.query(`
      CREATE TABLE audit_events (
        id BIGSERIAL PRIMARY KEY,
        at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
        "actorId" UUID,
        "actorEmail" VARCHAR(255),
        "actorRole" VARCHAR(16),
        via VARCHAR(16),
        "apiTokenId" UUID,
        address VARCHAR(64),
        "userAgent" VARCHAR(512),
        action VARCHAR(64) NOT NULL,
        "targetType" VARCHAR(32),
        "targetId" VARCHAR(64),
        "targetLabel" VARCHAR(255),
        "accountId" UUID,
        before JSONB,
        after JSONB,
        details JSONB
      )`);
    await sequelize.query('CREATE INDEX audit_events_at ON audit_events (at)');
    await sequelize.query('CREATE INDEX audit_events_account ON audit_events ("accountId", id)');
    await sequelize.query('CREATE INDEX audit_events_actor ON audit_events ("actorId", id)');
    await sequelize.query('CREATE INDEX audit_events_action ON audit_events (action, id)');
    await sequelize.query('CREATE INDEX audit_events_target ON audit_events ("targetType", "targetId")');
    await sequelize.query(`
      CREATE FUNCTION aabify_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        keep_days integer := NULLIF(current_setting('aabify.audit_retention_days', true), '')::integer;
      BEGIN
        IF TG_OP = 'DELETE' AND keep_days IS NOT NULL AND keep_days >= 30 THEN
          IF OLD.at < now() - make_interval(days => keep_days) THEN
            RETURN OLD;
          END IF;
        END IF;
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await sequelize.query('CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events FOR EACH ROW EXECUTE FUNCTION aabify_audit_append_only()');
    await sequelize.query('CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events FOR EACH STATEMENT EXECUTE FUNCTION aabify_audit_append_only()');
  },
  async down(_qi, sequelize) {
    await sequelize.query('DROP TABLE IF EXISTS audit_events');
    await sequelize.query('DROP FUNCTION IF EXISTS aabify_audit_append_only()');
  },
};
