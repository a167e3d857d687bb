export * from './model.js';
export { MAX_XML_DEPTH, isBinaryXml, parseBinaryXml, type ParseXmlOptions } from './parser.js';
