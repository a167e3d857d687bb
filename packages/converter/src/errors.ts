/**
 * Every failure the engine reports is a ConverterError: a stable code (for the API, the CLI's
 * exit codes and tests), a user-safe pt-BR message, and an internal detail (chunk, offset, entry)
 * for logs. Codes and their messages live only here, but for the keystore's, which the
 * dashboard and the CLI show too: they live in @aabify/shared (KEYSTORE_ERROR_MESSAGES).
 */
import { KEYSTORE_ERROR_MESSAGES } from '@aabify/shared/keystores';

export const CONVERTER_ERRORS = {
  NOT_A_ZIP: 'O arquivo não é um APK válido (não é um arquivo ZIP).',
  TRUNCATED_ZIP: 'O arquivo APK está incompleto ou corrompido (ZIP truncado).',
  ENCRYPTED_ENTRY: 'O APK contém entradas criptografadas, que não são suportadas.',
  UNSUPPORTED_COMPRESSION: 'O APK usa um método de compressão não suportado.',
  UNSAFE_PATH: 'O APK contém nomes de arquivo inválidos ou inseguros (caminhos absolutos ou com "..", caracteres de controle, ou longos demais para o AAB).',
  DUPLICATE_ENTRY: 'O APK contém entradas duplicadas com o mesmo nome.',
  SIZE_MISMATCH: 'O APK declara tamanhos de arquivo que não conferem com o conteúdo.',
  TOO_MANY_ENTRIES: 'O APK contém arquivos demais para ser processado com segurança.',
  INFLATED_TOO_LARGE: 'O conteúdo descompactado do APK excede o limite permitido.',
  SUSPICIOUS_COMPRESSION: 'O APK contém arquivos com taxa de compressão suspeita (possível bomba ZIP).',
  CORRUPT_ZIP: 'O arquivo APK está corrompido (estrutura ZIP inválida).',
  ENTRY_HEADER_MISMATCH: 'O APK está corrompido: o cabeçalho de um arquivo não confere com o diretório central do ZIP.',
  CORRUPT_ENTRY: 'Um arquivo dentro do APK está corrompido (dados compactados ou CRC inválidos).',
  MISSING_MANIFEST: 'O APK não contém o AndroidManifest.xml.',
  BAD_MANIFEST: 'O AndroidManifest.xml do APK está corrompido ou é inválido.',
  BAD_RESOURCE_TABLE: 'A tabela de recursos (resources.arsc) do APK está corrompida ou é inválida.',
  BAD_BINARY_XML: 'Um arquivo XML compilado do APK está corrompido ou é inválido.',
  STRING_POOL_TOO_LARGE: 'Um pool de strings do APK excede o limite permitido.',
  NESTING_TOO_DEEP: 'Um XML do APK tem aninhamento profundo demais.',
  NOT_A_BASE_APK: 'O APK é um split de configuração, não um APK base: envie-o junto com o APK base (ou o conjunto inteiro: .apks, .xapk, .apkm ou .zip).',
  NOT_AN_APK_CONTAINER: 'O arquivo não é um APK nem um conjunto de APKs (.apks, .xapk, .apkm ou .zip com APKs).',
  ENCRYPTED_APKM: 'O arquivo .apkm está criptografado pelo APKMirror e não pode ser lido: exporte os APKs sem criptografia (por exemplo, como .apks ou .zip) e envie de novo.',
  SPLIT_MISMATCH: 'Os APKs enviados não são do mesmo app: os pacotes ou os versionCode são diferentes.',
  MISSING_BASE_SPLIT: 'O conjunto de APKs não tem o APK base: há só splits de configuração, de recurso ou de assets.',
  SPLIT_CONFLICT: 'Dois APKs do conjunto trazem a mesma configuração (ou o mesmo arquivo) com conteúdos diferentes.',
  TOO_MANY_SPLITS: 'O conjunto tem APKs demais para ser processado com segurança.',
  INVALID_BUNDLE: 'O AAB gerado não passou na validação do formato; nenhum arquivo foi gravado.',
  OUTPUT_EXISTS: 'O arquivo de saída já existe.',
  ABORTED: 'A conversão foi cancelada.',
  INVALID_OPTIONS: 'Opções de conversão inválidas.',
  BUNDLE_WITHOUT_MANIFEST: 'O AAB não tem um manifesto válido no módulo base (base/manifest/AndroidManifest.xml).',
  NOT_AN_AAB: 'O arquivo não é um Android App Bundle (.aab): falta o BundleConfig.pb ou o módulo base.',
  INVALID_AAB: 'O AAB é inválido ou está corrompido: o bundletool também o recusaria.',
  UNSUPPORTED_AAB: 'O AAB usa um recurso que a geração de APKs do aabify ainda não suporta.',
  INVALID_DEVICE_SPEC: 'A especificação do dispositivo é inválida (veja o formato do --device-spec do bundletool).',
  DEVICE_INCOMPATIBLE: 'O app não é compatível com o dispositivo informado (ABI, versão do Android ou idioma).',
  ...KEYSTORE_ERROR_MESSAGES,
  IO_ERROR: 'Erro de leitura ou escrita de arquivo durante a conversão.',
  INTERNAL: 'Erro interno do conversor.',
} as const;

export type ConverterErrorCode = keyof typeof CONVERTER_ERRORS;

/**
 * The same codes said of an .aab instead of an APK, for the failures reading the input zip
 * (building APKs from a bundle reads the bundle with the same zip reader and the same limits).
 */
export const AAB_INPUT_MESSAGES: Partial<Record<ConverterErrorCode, string>> = {
  NOT_A_ZIP: 'O arquivo não é um AAB válido (não é um arquivo ZIP).',
  TRUNCATED_ZIP: 'O arquivo AAB está incompleto ou corrompido (ZIP truncado).',
  ENCRYPTED_ENTRY: 'O AAB contém entradas criptografadas, que não são suportadas.',
  UNSUPPORTED_COMPRESSION: 'O AAB usa um método de compressão não suportado.',
  UNSAFE_PATH: 'O AAB contém nomes de arquivo inválidos ou inseguros (caminhos absolutos ou com "..", caracteres de controle, ou longos demais).',
  DUPLICATE_ENTRY: 'O AAB contém entradas duplicadas com o mesmo nome.',
  SIZE_MISMATCH: 'O AAB declara tamanhos de arquivo que não conferem com o conteúdo.',
  TOO_MANY_ENTRIES: 'O AAB contém arquivos demais para ser processado com segurança.',
  INFLATED_TOO_LARGE: 'O conteúdo descompactado do AAB excede o limite permitido.',
  SUSPICIOUS_COMPRESSION: 'O AAB contém arquivos com taxa de compressão suspeita (possível bomba ZIP).',
  CORRUPT_ZIP: 'O arquivo AAB está corrompido (estrutura ZIP inválida).',
  ENTRY_HEADER_MISMATCH: 'O AAB está corrompido: o cabeçalho de um arquivo não confere com o diretório central do ZIP.',
  CORRUPT_ENTRY: 'Um arquivo dentro do AAB está corrompido (dados compactados ou CRC inválidos).',
  STRING_POOL_TOO_LARGE: 'Um pool de strings do AAB excede o limite permitido.',
  NESTING_TOO_DEEP: 'Um XML do AAB tem aninhamento profundo demais.',
  ABORTED: 'A geração dos APKs foi cancelada.',
  INVALID_OPTIONS: 'Opções inválidas para gerar os APKs.',
  IO_ERROR: 'Erro de leitura ou escrita de arquivo durante a geração dos APKs.',
  INTERNAL: 'Erro interno ao gerar os APKs.',
};

export class ConverterError extends Error {
  readonly code: ConverterErrorCode;
  /** Internal detail for logs and developers (entry name, chunk type, offset); never secrets. */
  readonly detail?: string;

  constructor(code: ConverterErrorCode, detail?: string, options?: { cause?: unknown; input?: 'apk' | 'aab' }) {
    super((options?.input === 'aab' ? AAB_INPUT_MESSAGES[code] : undefined) ?? CONVERTER_ERRORS[code], options);
    this.name = 'ConverterError';
    this.code = code;
    this.detail = detail;
  }
}

export function isConverterError(e: unknown): e is ConverterError {
  return e instanceof ConverterError;
}

/** The error as said of a bundle given as input (same code and detail, the .aab wording of its message). */
export function asBundleInputError(e: ConverterError): ConverterError {
  if (AAB_INPUT_MESSAGES[e.code] === undefined || e.message === AAB_INPUT_MESSAGES[e.code]) return e;
  return new ConverterError(e.code, e.detail, { cause: e.cause, input: 'aab' });
}
