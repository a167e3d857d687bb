export const VERSION = '0.1.0';
export * from './messages.js';
export * from './accounts.js';
export * from './planAccess.js';
export * from './money.js';
export * from './brcode.js';
export * from './plansMessages.js';
export * from './plans.js';
export * from './payments.js';
