/**
 * Native libraries whose file name says which SDK ships them: the 16 KB check names the SDK to
 * update when a library of that name is not 16 KB-aligned. Only names one SDK is known to ship
 * (each SDK's own packaging); a name several projects use (libmain.so, libnative-lib.so) is left
 * out rather than guessed.
 */
const SDK_BY_LIBRARY: ReadonlyArray<readonly [sdk: string, names: readonly string[]]> = [
  ['Flutter', ['libflutter.so', 'libapp.so']],
  ['React Native', ['libreactnativejni.so', 'libreactnative.so', 'libhermes.so', 'libhermes_executor.so', 'libjsc.so', 'libjscexecutor.so', 'libfbjni.so', 'libyoga.so', 'libturbomodulejsijni.so', 'libreact_nativemodule_core.so', 'libfolly_runtime.so', 'libfolly_json.so', 'libglog.so']],
  ['Unity', ['libunity.so', 'libil2cpp.so']],
  ['.NET para Android (Xamarin/MAUI)', ['libmonosgen-2.0.so', 'libmonodroid.so', 'libxamarin-app.so', 'libmono-native.so']],
  ['Unreal Engine', ['libUE4.so', 'libUnreal.so']],
  ['Godot', ['libgodot_android.so']],
  ['Cocos', ['libcocos2dcpp.so', 'libcocos2djs.so', 'libcocos.so']],
  ['libGDX', ['libgdx.so', 'libgdx-box2d.so', 'libgdx-freetype.so', 'libgdx-bullet.so']],
  ['o NDK do Android (runtime C++ compartilhado)', ['libc++_shared.so']],
  ['SQLCipher', ['libsqlcipher.so']],
  ['TensorFlow Lite (LiteRT)', ['libtensorflowlite_jni.so', 'libtensorflowlite_gpu_jni.so']],
  ['OpenCV', ['libopencv_java3.so', 'libopencv_java4.so']],
  ['Realm', ['librealm-jni.so']],
  ['MMKV', ['libmmkv.so']],
  ['Fresco', ['libimagepipeline.so', 'libnative-imagetranscoder.so', 'libnative-filters.so', 'libstatic-webp.so']],
  ['android-gif-drawable', ['libpl_droidsonroids_gif.so']],
  ['Sentry', ['libsentry.so', 'libsentry-android.so']],
  ['Firebase Crashlytics NDK', ['libcrashlytics.so', 'libcrashlytics-common.so', 'libcrashlytics-handler.so', 'libcrashlytics-trampoline.so']],
  ['PdfiumAndroid', ['libjniPdfium.so', 'libmodpdfium.so']],
  ['ObjectBox', ['libobjectbox-jni.so']],
  ['JNA', ['libjnidispatch.so']],
  ['FFmpegKit', ['libffmpegkit.so', 'libffmpegkit_abidetect.so']],
  ['libVLC', ['libvlc.so', 'libvlcjni.so']],
  ['gomobile (Go)', ['libgojni.so']],
  ['AndroidX DataStore', ['libdatastore_shared_counter.so']],
  ['AndroidX Graphics (Compose)', ['libandroidx.graphics.path.so']],
];

const SDK_OF = new Map(SDK_BY_LIBRARY.flatMap(([sdk, names]) => names.map((n) => [n, sdk] as const)));

/** The SDK that usually ships a library of this file name, when that is known. */
export function sdkOfLibrary(fileName: string): string | undefined {
  return SDK_OF.get(fileName);
}
