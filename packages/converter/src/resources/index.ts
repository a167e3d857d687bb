/**
 * The resources half of the engine, as the bundle stage calls it: binary resource table and
 * binary XML in, aapt2's protobuf formats out (docs/aab-format.md, "Binary resource formats" to "File resources").
 */
export { parseResourceTable } from '../arsc/table.js';
export type { ResourceTable } from '../arsc/model.js';
export { isBinaryXml, parseBinaryXml, type ParseXmlOptions } from '../axml/parser.js';
export type { XmlDocument } from '../axml/model.js';
export { AAPT2_TYPE_NAMES, buildResourceTableProto, type TableProtoContext } from './tableProto.js';
export { resourceTableToProto } from './tableBytes.js';
export { listReferencedFiles, protoXmlCandidates, tableSummary, type TableSummary } from './tableInfo.js';
export { hasCompiledValue, xmlToProto, xmlToProtoNode, type XmlProtoOptions } from './xmlProto.js';
export { configToProto } from './configProto.js';
export { FileType, inferFileType, type ConversionWarning } from './valueProto.js';
export { ANDROID_NS, AndroidAttr, readManifest, type ManifestInfo } from './manifest.js';
export {
  BUNDLETOOL_ATTRIBUTES,
  BUNDLETOOL_METADATA,
  repairManifest,
  type ManifestRepairOptions,
  type ManifestRepairResult,
} from './manifestRepair.js';
export { apiLevelForCodename } from './sdkCodenames.js';
