/**
 * bundletool's `android.bundle` schema (config.proto, files.proto, the parts of targeting.proto
 * an APK conversion needs), written from the public wire contract: same message names, field
 * names and numbers. In a module of its own, as aaptSchema.ts: scripts/proto-descriptors.ts
 * reads it without loading what is built from it.
 */
export const BUNDLE_PROTO = `
syntax = "proto3";
package android.bundle;

message BundleConfig {
  Bundletool bundletool = 1;
  Optimizations optimizations = 2;
  Compression compression = 3;
  MasterResources master_resources = 4;
  ApexConfig apex_config = 5;
  repeated UnsignedEmbeddedApkConfig unsigned_embedded_apk_config = 6;
  AssetModulesConfig asset_modules_config = 7;
  enum BundleType {
    REGULAR = 0;
    APEX = 1;
    ASSET_ONLY = 2;
  }
  BundleType type = 8;
  Locales locales = 9;
}

message Bundletool {
  reserved 1;
  string version = 2;
}

message Compression {
  repeated string uncompressed_glob = 1;
  enum AssetModuleCompression {
    UNSPECIFIED = 0;
    UNCOMPRESSED = 1;
    COMPRESSED = 2;
  }
  AssetModuleCompression install_time_asset_module_default_compression = 2;
  enum ApkCompressionAlgorithm {
    DEFAULT_APK_COMPRESSION_ALGORITHM = 0;
    P7ZIP = 1;
  }
  ApkCompressionAlgorithm apk_compression_algorithm = 3;
}

message MasterResources {
  repeated int32 resource_ids = 1;
  repeated string resource_names = 2;
}

message Optimizations {
  SplitsConfig splits_config = 1;
  UncompressNativeLibraries uncompress_native_libraries = 2;
  UncompressDexFiles uncompress_dex_files = 3;
  StandaloneConfig standalone_config = 4;
  ResourceOptimizations resource_optimizations = 5;
  StoreArchive store_archive = 6;
}

message ResourceOptimizations {
  enum SparseEncoding {
    UNSPECIFIED = 0;
    reserved 1;
    VARIANT_FOR_SDK_32 = 2;
  }
  SparseEncoding sparse_encoding = 1;
  CollapsedResourceNames collapsed_resource_names = 2;
}

message CollapsedResourceNames {
  bool collapse_resource_names = 1;
  repeated ResourceTypeAndName no_collapse_resources = 2;
  bool deduplicate_resource_entries = 3;
  repeated string no_collapse_resource_types = 4;
}

message ResourceTypeAndName {
  string type = 1;
  string name = 2;
}

message UncompressNativeLibraries {
  bool enabled = 1;
  enum PageAlignment {
    PAGE_ALIGNMENT_UNSPECIFIED = 0;
    PAGE_ALIGNMENT_4K = 1;
    PAGE_ALIGNMENT_16K = 2;
    PAGE_ALIGNMENT_64K = 3;
  }
  PageAlignment alignment = 2;
}

message UncompressDexFiles {
  bool enabled = 1;
  enum UncompressedDexTargetSdk {
    UNSPECIFIED = 0;
    SDK_31 = 1;
    reserved 2;
  }
  UncompressedDexTargetSdk uncompressed_dex_target_sdk = 2;
}

message StoreArchive {
  bool enabled = 1;
}

message Locales {
  bool inject_locale_config = 1;
}

message SplitsConfig {
  repeated SplitDimension split_dimension = 1;
}

message StandaloneConfig {
  repeated SplitDimension split_dimension = 1;
  bool strip_64_bit_libraries = 2;
  enum DexMergingStrategy {
    MERGE_IF_NEEDED = 0;
    NEVER_MERGE = 1;
  }
  DexMergingStrategy dex_merging_strategy = 3;
  enum FeatureModulesMode {
    FUSED_FEATURE_MODULES = 0;
    SEPARATE_FEATURE_MODULES = 1;
  }
  FeatureModulesMode feature_modules_mode = 4;
}

message SplitDimension {
  enum Value {
    UNSPECIFIED_VALUE = 0;
    ABI = 1;
    SCREEN_DENSITY = 2;
    LANGUAGE = 3;
    TEXTURE_COMPRESSION_FORMAT = 4;
    DEVICE_TIER = 6;
    COUNTRY_SET = 7;
    AI_MODEL_VERSION = 8;
    DEVICE_GROUP = 9;
  }
  Value value = 1;
  bool negate = 2;
  SuffixStripping suffix_stripping = 3;
}

message SuffixStripping {
  bool enabled = 1;
  string default_suffix = 2;
}

message ApexConfig {
  repeated SupportedAbiSet supported_abi_set = 1;
}

message SupportedAbiSet {
  repeated string abi = 1;
}

message UnsignedEmbeddedApkConfig {
  string path = 1;
}

message AssetModulesConfig {
  repeated int64 app_version = 1;
  string asset_version_tag = 2;
}

// files.proto
message Assets {
  repeated TargetedAssetsDirectory directory = 1;
}

message NativeLibraries {
  repeated TargetedNativeDirectory directory = 1;
}

message TargetedAssetsDirectory {
  string path = 1;
  AssetsDirectoryTargeting targeting = 2;
}

message TargetedNativeDirectory {
  string path = 1;
  NativeDirectoryTargeting targeting = 2;
}

// targeting.proto (subset)
message Abi {
  enum AbiAlias {
    UNSPECIFIED_CPU_ARCHITECTURE = 0;
    ARMEABI = 1;
    ARMEABI_V7A = 2;
    ARM64_V8A = 3;
    X86 = 4;
    X86_64 = 5;
    MIPS = 6;
    MIPS64 = 7;
    RISCV64 = 8;
  }
  AbiAlias alias = 1;
}

message Sanitizer {
  enum SanitizerAlias {
    NONE = 0;
    HWADDRESS = 1;
  }
  SanitizerAlias alias = 1;
}

message AbiTargeting {
  repeated Abi value = 1;
  repeated Abi alternatives = 2;
}

message LanguageTargeting {
  repeated string value = 1;
  repeated string alternatives = 2;
}

message TextureCompressionFormat {
  enum TextureCompressionFormatAlias {
    UNSPECIFIED_TEXTURE_COMPRESSION_FORMAT = 0;
    ETC1_RGB8 = 1;
    PALETTED = 2;
    THREE_DC = 3;
    ATC = 4;
    LATC = 5;
    DXT1 = 6;
    S3TC = 7;
    PVRTC = 8;
    ASTC = 9;
    ETC2 = 10;
  }
  TextureCompressionFormatAlias alias = 1;
}

message TextureCompressionFormatTargeting {
  repeated TextureCompressionFormat value = 1;
  repeated TextureCompressionFormat alternatives = 2;
}

message AssetsDirectoryTargeting {
  AbiTargeting abi = 1;
  TextureCompressionFormatTargeting texture_compression_format = 3;
  LanguageTargeting language = 4;
}

message NativeDirectoryTargeting {
  Abi abi = 1;
  TextureCompressionFormat texture_compression_format = 3;
  Sanitizer sanitizer = 4;
}
`;
