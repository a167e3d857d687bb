/**
 * The resources half of the engine, as the bundle stage calls it: binary resource table and
 * binary XML in, aapt2's protobuf formats out (docs/aab-format.md, "Binary resource formats" to "File resources").
 */
export { parseResourceTable } from '../arsc/table.js';
export type { ResourceTable } from '../arsc/model.js';
export { isBinaryXml, parseBinaryXml, type ParseXmlOptions } from '../axml/parser.js';
export type { XmlDocument } from '../axml/model.js';
export { AAPT2_TYPE_NAMES, buildResourceTableProto, resourceTableToProto, type TableProtoContext } from './table-proto.js';
export { listReferencedFiles, protoXmlCandidates, tableSummary, type TableSummary } from './table-info.js';
export { hasCompiledValue, xmlToProto, xmlToProtoNode, type XmlProtoOptions } from './xml-proto.js';
export { configToProto } from './config-proto.js';
export { FileType, inferFileType, type ConversionWarning } from './value-proto.js';
export { ANDROID_NS, AndroidAttr, readManifest, type ManifestInfo } from './manifest.js';
export {
  BUNDLETOOL_ATTRIBUTES,
  BUNDLETOOL_METADATA,
  repairManifest,
  type ManifestRepairOptions,
  type ManifestRepairResult,
} from './manifest-repair.js';
export { apiLevelForCodename } from './sdk-codenames.js';
