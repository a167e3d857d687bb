export { ConverterError, CONVERTER_ERRORS, isConverterError } from './errors.js';
export type { ConverterErrorCode } from './errors.js';
