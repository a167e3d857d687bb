/** What building APKs from a bundle tells its caller. */
import type { ConversionStage, ConversionWarning } from '../report.js';
import type { DeviceSpec } from './deviceSpec.js';

export type ApksMode = 'universal' | 'device';

export const APKS_WARNING_MESSAGES = {
  TEST_KEY_SIGNED:
    'Os APKs foram assinados com a chave de teste do aabify: servem para instalar e testar no celular, nunca para publicar no Google Play (a Play recusa e os usuários não receberiam atualizações).',
  DEBUG_CERTIFICATE: 'Os APKs foram assinados com um certificado de depuração (CN=Android Debug).',
  INPUT_SIGNATURE_FILES_DROPPED: 'Arquivos de assinatura JAR antigos que o bundle trazia em root/META-INF/ foram descartados: os APKs levam uma assinatura nova.',
  DEBUGGABLE_APP: 'O app é depurável (android:debuggable="true").',
} as const;

export type ApksWarningCode = keyof typeof APKS_WARNING_MESSAGES;

export function apksWarning(code: ApksWarningCode, detail?: string): ConversionWarning {
  return { code, message: APKS_WARNING_MESSAGES[code], ...(detail ? { detail } : {}) };
}

/** One APK written: the universal APK, or a split of the device set. */
export interface ApkReport {
  /** bundletool's name for it: `universal`, `base-master`, `base-arm64_v8a`, `feature-xxhdpi` ... */
  name: string;
  /** Path inside the .apks set (`splits/base-master.apk`), or the output file for a universal APK. */
  path: string;
  module: string;
  sizeBytes: number;
  entries: number;
}

export interface ApkSignatureReport {
  alias: string;
  subject: string;
  keyAlgorithm: 'RSA' | 'EC';
  keySize: number;
  /** Signature schemes in the APKs: v1 (JAR) for Android before 7.0, v2, v3. */
  schemes: ('v1' | 'v2' | 'v3')[];
  /** e.g. RSASSA-PKCS1-v1_5 com SHA-256 (v2/v3), and SHA1withRSA / SHA256withRSA for v1. */
  algorithm: string;
  v1Algorithm?: string;
  certificateSha1: string;
  certificateSha256: string;
  notAfter: string;
  /** aabify's test key: the APKs install for testing, Google Play would refuse them. */
  testKey: boolean;
}

export interface ApksReport {
  input: string;
  output: string;
  mode: ApksMode;
  packageName: string;
  versionCode?: number;
  versionName?: string;
  minSdk?: number;
  targetSdk?: number;
  /** The bundle's modules that went into the APKs. */
  modules: string[];
  apks: ApkReport[];
  /** The device a device set was built for. */
  deviceSpec?: DeviceSpec;
  sizeIn: number;
  sizeOut: number;
  signature: ApkSignatureReport;
  durations: Partial<Record<ConversionStage, number>> & { total: number };
  warnings: ConversionWarning[];
}
