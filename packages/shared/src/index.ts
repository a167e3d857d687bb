// Everything the server and the dashboard share, through one import. The CLI and the engine import
// the topic modules themselves (@aabify/shared/keystores ...) and only those free of yup, so that
// `aabify` builds no request schema at start (~6 ms of every command): schemas live in
// *Schemas.ts modules, and test/startModules.test.ts keeps it so.
export const VERSION = '0.1.0';
export * from './messages.js';
export * from './hiddenCharacters.js';
export * from './accounts.js';
export * from './accountSecurity.js';
export * from './securityMessages.js';
export * from './accountSchemas.js';
export * from './planAccess.js';
export * from './money.js';
export * from './brcode.js';
export * from './plansMessages.js';
export * from './plans.js';
export * from './payments.js';
export * from './conversions.js';
export * from './conversionJson.js';
export * from './conversionReport.js';
export * from './conversionSchemas.js';
export * from './adminLimits.js';
export * from './adminMessages.js';
export * from './adminSchemas.js';
export * from './adminJson.js';
export * from './adminScreens.js';
export * from './keystores.js';
export * from './keystoreSchemas.js';
export * from './downloadSizes.js';
export * from './numbers.js';
export * from './ids.js';
export * from './json.js';
export * from './paging.js';
export * from './playChecklist.js';
export * from './playCheckTexts.js';
export * from './playPermissions.js';
export * from './emailMessages.js';
export * from './email.js';
export * from './play.js';
export * from './playSchemas.js';
export * from './audit.js';
export * from './auditSchemas.js';
export * from './userAgent.js';
export * from './legal.js';
export * from './legalSchemas.js';
export * from './help.js';
export * from './operatorWarnings.js';
export * from './privacy.js';
export * from './privacySchemas.js';
