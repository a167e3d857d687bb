export { AAPT_PROTO, AAPT_PROTO_FILE_NAME } from './aaptSchema.js';
export * from './aapt.js';
export * from './bundle.js';
