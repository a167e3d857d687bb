import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

/**
 * One event of the audit trail (audit/recorder.ts writes them; nothing updates or deletes them
 * but the retention job, which the database alone lets through: migration 0170). The actor's
 * e-mail and the target's label are copies taken when the event happened.
 */
export class AuditEvent extends Model<InferAttributes<AuditEvent>, InferCreationAttributes<AuditEvent>> {
  /** BIGSERIAL, read as a string (node-postgres does not turn int8 into a number). */
  declare id: CreationOptional<string>;
  declare at: CreationOptional<Date>;
  declare actorId: string | null;
  declare actorEmail: string | null;
  declare actorRole: string | null;
  declare via: 'session' | 'api_token' | null;
  /** The API token the actor acted with (via 'api_token'). */
  declare apiTokenId: string | null;
  declare address: string | null;
  declare userAgent: string | null;
  declare action: string;
  declare targetType: string | null;
  declare targetId: string | null;
  declare targetLabel: string | null;
  declare accountId: string | null;
  declare before: Record<string, unknown> | null;
  declare after: Record<string, unknown> | null;
  declare details: Record<string, unknown> | null;
}

export function defineAuditEvent(sequelize: Sequelize): typeof AuditEvent {
  class BoundAuditEvent extends AuditEvent {}
  BoundAuditEvent.init(
    {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      at: { type: DataTypes.DATE, allowNull: false },
      actorId: { type: DataTypes.UUID, allowNull: true },
      actorEmail: { type: DataTypes.STRING(255), allowNull: true },
      actorRole: { type: DataTypes.STRING(16), allowNull: true },
      via: { type: DataTypes.STRING(16), allowNull: true },
      apiTokenId: { type: DataTypes.UUID, allowNull: true },
      address: { type: DataTypes.STRING(64), allowNull: true },
      userAgent: { type: DataTypes.STRING(512), allowNull: true },
      action: { type: DataTypes.STRING(64), allowNull: false },
      targetType: { type: DataTypes.STRING(32), allowNull: true },
      targetId: { type: DataTypes.STRING(64), allowNull: true },
      targetLabel: { type: DataTypes.STRING(255), allowNull: true },
      accountId: { type: DataTypes.UUID, allowNull: true },
      before: { type: DataTypes.JSONB, allowNull: true },
      after: { type: DataTypes.JSONB, allowNull: true },
      details: { type: DataTypes.JSONB, allowNull: true },
    },
    { sequelize, modelName: 'AuditEvent', tableName: 'audit_events', timestamps: false },
  );
  return BoundAuditEvent;
}
