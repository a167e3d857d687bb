import type { Models } from './index.js';

/** Conversions belong to a user; logs and download tokens to a conversion. */
export function associateConversions(m: Models): void {
  m.User.hasMany(m.Conversion, { foreignKey: { name: 'userId', allowNull: false }, as: 'conversions', onDelete: 'CASCADE' });
  m.Conversion.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
  m.Conversion.hasMany(m.ConversionLog, { foreignKey: { name: 'conversionId', allowNull: false }, as: 'logs', onDelete: 'CASCADE' });
  m.ConversionLog.belongsTo(m.Conversion, { foreignKey: { name: 'conversionId', allowNull: false }, as: 'conversion' });
  m.Conversion.hasMany(m.DownloadToken, { foreignKey: { name: 'conversionId', allowNull: false }, as: 'downloadTokens', onDelete: 'CASCADE' });
  m.DownloadToken.belongsTo(m.Conversion, { foreignKey: { name: 'conversionId', allowNull: false }, as: 'conversion' });
  m.DownloadToken.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
}
