/**
 * Engine report facts added by signing and by the download-size estimate, as the API shows
 * them with a completed conversion (ConversionReportJson.downloadSizes / .signature).
 */

/** What Play would deliver to one representative device from the AAB, against the APK. */
export interface DeviceDownloadSizeJson {
  deviceId: string;
  /** pt-BR, e.g. 'Celular atual (arm64-v8a, xxhdpi, pt-BR)'. */
  label: string;
  /** False when the app has no native code for the device's ABIs. */
  compatible: boolean;
  /** Estimated compressed download from the bundle (base + matching splits). */
  bundleBytes: number;
  /** Estimated compressed download of the APK as it is. */
  apkBytes: number;
  savedBytes: number;
  /** Percentage of apkBytes, one decimal. */
  savedPercent: number;
}

/** The upload key a completed conversion was signed with (what to match in Play Console). */
export interface ConversionSignatureJson {
  alias: string;
  signatureAlgorithm: string;
  subject: string;
  certificateSha256: string;
  notAfter: string;
}
