import type { ContainerKind } from './input/open.js';
import type { DeviceDownloadSize } from './size/estimate.js';
import type { MergedSplit } from './splits/classify.js';

/** A module of the bundle as written. */
export interface ModuleReport {
  name: string;
  kind: 'base' | 'feature' | 'asset-pack';
  /** Asset packs: install-time, fast-follow, on-demand, or as-declared (kept from a split's manifest). */
  delivery?: string;
  files: number;
  /** Compressed bytes of the module's entries in the AAB (what Play's size limits are about). */
  sizeBytes: number;
}

/**
 * What a conversion tells its caller: the APK's facts, what happened to each entry, and the
 * warnings (code, pt-BR message, internal detail) for what could not be carried over as is.
 */

/**
 * Stages in the order a conversion passes them; `onProgress(stage, fraction)` goes from 0 to 1
 * within each stage:
 * - reading: central directory, entry routing;
 * - manifest: AndroidManifest.xml to proto, repairs;
 * - resources: resources.arsc and every referenced res/ file;
 * - validating: the planned bundle against every AAB rule, before a byte is written;
 * - writing: the .aab streamed to disk (fraction by bytes);
 * - done: the file renamed into place.
 */
export type ConversionStage = 'reading' | 'manifest' | 'resources' | 'validating' | 'writing' | 'done';

export const CONVERSION_STAGES: readonly ConversionStage[] = ['reading', 'manifest', 'resources', 'validating', 'writing', 'done'];

export const WARNING_MESSAGES = {
  UNREFERENCED_RESOURCES_DROPPED:
    'Arquivos em res/ que a tabela de recursos não referencia foram descartados (o formato AAB não os aceita e o app nunca os usaria).',
  RESOURCES_WITHOUT_TABLE_DROPPED: 'O APK não tem resources.arsc; os arquivos em res/ foram descartados.',
  NATIVE_FILES_DROPPED:
    'Arquivos em lib/ que não são bibliotecas nativas (.so ou wrap.sh) de uma ABI conhecida foram descartados: o AAB não tem onde guardá-los.',
  NATIVE_FILES_MOVED:
    'Arquivos em lib/<abi>/ que não são bibliotecas nativas (.so ou wrap.sh) foram movidos para assets/lib/<abi>/, pois o AAB só aceita bibliotecas em lib/: o app pode lê-los com o AssetManager em lib/<abi>/<nome>.',
  DEX_GAP_DROPPED: 'Arquivos classesN.dex fora da sequência contínua foram descartados (o Android nunca os carregaria).',
  RESERVED_ROOT_DROPPED: 'Arquivos na raiz do APK com nomes reservados pelo formato AAB foram descartados.',
  ASSET_TARGETING_NAME_DROPPED:
    'Arquivos em pastas de assets/ com "#" no nome foram descartados (o AAB interpretaria o nome como segmentação por dispositivo).',
  STORED_ENTRY_NOT_PROTECTED:
    'Alguns arquivos guardados sem compressão no APK têm nomes que não podem ser protegidos no BundleConfig; o Google Play poderá comprimi-los.',
  DEBUGGABLE_APP: 'O APK é depurável (android:debuggable="true"); o Google Play recusa apps depuráveis.',
  HAS_CODE_SET_FALSE:
    'O APK não tem código (classes.dex); o manifesto do AAB recebeu android:hasCode="false", como o formato exige.',
  MISSING_REFERENCED_FILES: 'A tabela de recursos referencia arquivos que não existem no APK.',
  DEBUG_CERTIFICATE: 'O AAB foi assinado com um certificado de depuração (CN=Android Debug); o Google Play recusa esse envio.',
  SPLITS_XML_REMOVED:
    'O recurso res/xml/splits0.xml, que o bundletool injeta nos APKs que gera, foi removido com o <meta-data> que o aponta: o Google Play o injeta de novo.',
  EXTRACT_NATIVE_LIBS_TO_CONFIG:
    'O android:extractNativeLibs que o bundletool grava nos APKs que gera saiu do manifesto e passou à configuração do AAB (uncompress_native_libraries), da qual o Google Play o grava de novo nos APKs.',
  OBB_NAME_UNEXPECTED:
    'O nome de um arquivo OBB não segue o padrão main|patch.<versionCode>.<pacote>.obb deste app; ele foi incluído mesmo assim, confira se é do app certo.',
  OBB_READ_BY_PATH:
    'Os arquivos OBB viraram pacotes de assets (Play Asset Delivery) e não ficam mais em Android/obb/: se o código do app abre o OBB por caminho (getObbDir, StorageManager.mountObb), ele precisa passar a lê-lo pelo AssetManager (pacote install-time) ou pela API AssetPackManager. Guia de migração: https://developer.android.com/guide/playcore/asset-delivery/integrate-java',
  ASSET_PACK_EMPTY: 'Nenhum asset do APK corresponde ao padrão de um pacote de assets pedido; o pacote não foi criado.',
  ASSET_PACK_NEEDS_API:
    'Pacotes de assets fast-follow e on-demand não ficam no AssetManager: o app precisa baixá-los e localizá-los pela API AssetPackManager (Play Core). Veja https://developer.android.com/guide/playcore/asset-delivery/integrate-java',
} as const;

export type ConverterWarningCode = keyof typeof WARNING_MESSAGES;

export interface ConversionWarning {
  /** A code from WARNING_MESSAGES, or one the resources module reports (manifest repairs). */
  code: string;
  /** pt-BR, safe to show to the user. */
  message: string;
  /** Internal detail: paths, counts. */
  detail?: string;
}

export function warning(code: ConverterWarningCode, paths: readonly string[] = [], extra?: string): ConversionWarning {
  const shown = paths.slice(0, 20).join(', ');
  const more = paths.length > 20 ? ` (+${paths.length - 20})` : '';
  const detail = [paths.length > 0 ? `${paths.length}: ${shown}${more}` : '', extra ?? ''].filter(Boolean).join('; ');
  return { code, message: WARNING_MESSAGES[code], ...(detail ? { detail } : {}) };
}

/** What the APK itself says, read without converting anything. */
export interface ApkInfo {
  packageName: string;
  versionCode?: number;
  versionName?: string;
  /** An API level, or the codename a preview build names (e.g. "S"). */
  minSdk?: number | string;
  targetSdk?: number | string;
  debuggable: boolean;
  /** ABI directories under lib/ that hold native libraries, sorted. */
  abis: string[];
  locales: string[];
  densities: number[];
  dexCount: number;
  /** Files in the APK (directory entries not counted). */
  entryCount: number;
  sizeBytes: number;
  hasResourceTable: boolean;
  /** APK signature scheme v1 files present (META-INF/*.SF ...). */
  v1Signed: boolean;
}

export interface EntryCounts {
  /** Entries copied as their compressed bytes. */
  copiedRaw: number;
  /** Entries rewritten: manifest, table, binary XML files. */
  converted: number;
  /** APK entries with no place in the bundle (signatures, unreferenced res/ ...). */
  dropped: number;
  /** Entries generated for the bundle: BundleConfig.pb, assets.pb, native.pb. */
  generated: number;
}

export interface ConversionReport extends ApkInfo {
  /** The first input (the APK, or the split set's file). */
  input: string;
  /** Every input file, OBBs included. */
  inputs: string[];
  output: string;
  /** What the input was, recognised by content: one APK, a split set (.apks, .xapk, .apkm, zip) or several files. */
  container: ContainerKind;
  /** The bundle's modules: the base, features and asset packs, each with its compressed size in the AAB. */
  modules: ModuleReport[];
  /** Each APK of a split set, the module it was merged into and as what (master, config.<x>, duplicate). */
  splits: MergedSplit[];
  /** Size of the APK (same as sizeBytes) and of the AAB. */
  sizeIn: number;
  sizeOut: number;
  /** SHA-256 of the AAB (hex), taken while it was written. */
  sha256Out: string;
  entries: EntryCounts;
  /**
   * Milliseconds per stage, and in total; `checks` is the share of validating spent on the
   * pre-publication checks (checks/), to 0.1 ms — present when they ran.
   */
  durations: Partial<Record<ConversionStage, number>> & { checks?: number; total: number };
  warnings: ConversionWarning[];
  /** Present when the bundle was signed (JAR v1) with an upload key. */
  signature?: SignatureReport;
  /**
   * Estimated download per representative device: what Play delivers from the bundle against
   * the APK as it is ([] when it could not be estimated).
   */
  downloadSizes: DeviceDownloadSize[];
}

/** The upload key a bundle was signed with: what to compare with Play Console's upload certificate. */
export interface SignatureReport {
  alias: string;
  keystoreFormat: 'PKCS12' | 'JKS';
  keyAlgorithm: 'RSA' | 'EC';
  keySize: number;
  /** e.g. SHA256withRSA. */
  signatureAlgorithm: string;
  /** e.g. META-INF/UPLOAD.SF, META-INF/UPLOAD.RSA (plus META-INF/MANIFEST.MF). */
  signerFiles: string[];
  subject: string;
  /** Certificate fingerprints, `AA:BB:...`. */
  certificateSha1: string;
  certificateSha256: string;
  /** ISO date the certificate expires. */
  notAfter: string;
}
