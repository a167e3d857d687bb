import type { Models } from './index.js';

/** Associations of plans, purchases and payments (called from models/index.ts associate). */
export function associatePayments(m: Models): void {
  m.Purchase.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
  m.Purchase.belongsTo(m.Plan, { foreignKey: { name: 'planId', allowNull: true }, as: 'plan' });
  m.Purchase.hasMany(m.Payment, { foreignKey: { name: 'purchaseId', allowNull: false }, as: 'payments' });
  m.Purchase.hasMany(m.PurchaseTransition, { foreignKey: { name: 'purchaseId', allowNull: false }, as: 'transitions' });
  m.Payment.belongsTo(m.Purchase, { foreignKey: { name: 'purchaseId', allowNull: false }, as: 'purchase' });
  m.Payment.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
  m.PurchaseTransition.belongsTo(m.Purchase, { foreignKey: { name: 'purchaseId', allowNull: false }, as: 'purchase' });
}
