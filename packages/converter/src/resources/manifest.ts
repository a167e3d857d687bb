import { hex } from '../arsc/bytes.js';
import { DataType } from '../arsc/values.js';
import { type XmlAttribute, type XmlDocument, type XmlElement } from '../axml/model.js';

export const ANDROID_NS = 'http://schemas.android.com/apk/res/android';

/** Framework attribute ids (android.R.attr) the converter reads or writes. */
export const AndroidAttr = {
  name: 0x01010003,
  value: 0x01010024,
  hasCode: 0x0101000c,
  debuggable: 0x0101000f,
  minSdkVersion: 0x0101020c,
  versionCode: 0x0101021b,
  versionName: 0x0101021c,
  targetSdkVersion: 0x01010270,
  maxSdkVersion: 0x01010271,
  testOnly: 0x01010272,
  extractNativeLibs: 0x010104ea,
  targetSandboxVersion: 0x0101054c,
  isFeatureSplit: 0x0101055b,
} as const;

export interface ManifestInfo {
  packageName: string;
  versionCode?: number;
  versionName?: string;
  /** A number, or the codename string when the manifest names a preview platform. */
  minSdk?: number | string;
  targetSdk?: number | string;
  maxSdk?: number | string;
  /** The `split` attribute of a config/feature split; a base APK has none. */
  split?: string;
  debuggable?: boolean;
  testOnly?: boolean;
  hasCode?: boolean;
  extractNativeLibs?: boolean;
  isFeatureSplit?: boolean;
  targetSandboxVersion?: number;
  usesFeatures: string[];
  permissions: string[];
  usesSplits: string[];
  /** Whether the manifest has <uses-sdk-library> (not allowed in an AAB). */
  hasUsesSdkLibrary: boolean;
  hasApplication: boolean;
}

/** An attribute by framework id, or by android-namespace name when the id map was stripped. */
export function findAndroidAttr(el: XmlElement, name: string, id: number): XmlAttribute | undefined {
  return (
    el.attributes.find((a) => a.resourceId === id) ??
    el.attributes.find((a) => a.resourceId === 0 && a.namespaceUri === ANDROID_NS && a.name === name)
  );
}

export function findPlainAttr(el: XmlElement, name: string): XmlAttribute | undefined {
  return el.attributes.find((a) => a.namespaceUri === '' && a.name === name);
}

/** The attribute's value as text: the raw string, a typed string, or a rendering of the value. */
export function attrText(doc: XmlDocument, a: XmlAttribute): string {
  if (a.rawValue !== undefined) return a.rawValue;
  const { dataType, data } = a.typedValue;
  switch (dataType) {
    case DataType.STRING:
      return doc.strings[data >>> 0] ?? '';
    case DataType.REFERENCE:
    case DataType.DYNAMIC_REFERENCE:
      return `@${hex(data)}`;
    case DataType.ATTRIBUTE:
    case DataType.DYNAMIC_ATTRIBUTE:
      return `?${hex(data)}`;
    case DataType.INT_BOOLEAN:
      return data !== 0 ? 'true' : 'false';
    case DataType.INT_HEX:
      return hex(data);
    default:
      return String(data | 0);
  }
}

/** An integer attribute (decimal, hex, or a decimal string); the text when it is not a number. */
export function attrIntOrText(doc: XmlDocument, a: XmlAttribute): number | string {
  const { dataType, data } = a.typedValue;
  if (dataType === DataType.INT_DEC) return data | 0;
  if (dataType === DataType.INT_HEX) return data >>> 0;
  const text = attrText(doc, a).trim();
  return /^-?\d+$/.test(text) ? Number(text) : text;
}

export function attrBool(doc: XmlDocument, a: XmlAttribute): boolean | undefined {
  if (a.typedValue.dataType === DataType.INT_BOOLEAN) return a.typedValue.data !== 0;
  const text = attrText(doc, a).trim();
  return text === 'true' ? true : text === 'false' ? false : undefined;
}

function childElements(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c): c is XmlElement => c.kind === 'element' && c.name === name && c.namespaceUri === '');
}

/** What the report and the bundle rules need from an AndroidManifest.xml. */
export function readManifest(doc: XmlDocument): ManifestInfo {
  const m = doc.root;
  const text = (a: XmlAttribute | undefined): string | undefined => (a ? attrText(doc, a) : undefined);
  const bool = (el: XmlElement | undefined, name: keyof typeof AndroidAttr): boolean | undefined => {
    const a = el && findAndroidAttr(el, name, AndroidAttr[name]);
    return a ? attrBool(doc, a) : undefined;
  };
  const info: ManifestInfo = {
    packageName: text(findPlainAttr(m, 'package')) ?? '',
    usesFeatures: [],
    permissions: [],
    usesSplits: [],
    hasUsesSdkLibrary: false,
    hasApplication: false,
  };
  const versionCode = findAndroidAttr(m, 'versionCode', AndroidAttr.versionCode);
  if (versionCode) {
    const v = attrIntOrText(doc, versionCode);
    if (typeof v === 'number') info.versionCode = v;
  }
  const versionName = text(findAndroidAttr(m, 'versionName', AndroidAttr.versionName));
  if (versionName !== undefined) info.versionName = versionName;
  const split = text(findPlainAttr(m, 'split'));
  if (split !== undefined) info.split = split;
  const isFeatureSplit = bool(m, 'isFeatureSplit');
  if (isFeatureSplit !== undefined) info.isFeatureSplit = isFeatureSplit;

  const usesSdk = childElements(m, 'uses-sdk')[0];
  if (usesSdk) {
    for (const key of ['minSdkVersion', 'targetSdkVersion', 'maxSdkVersion'] as const) {
      const a = findAndroidAttr(usesSdk, key, AndroidAttr[key]);
      if (!a) continue;
      const v = attrIntOrText(doc, a);
      if (key === 'minSdkVersion') info.minSdk = v;
      else if (key === 'targetSdkVersion') info.targetSdk = v;
      else info.maxSdk = v;
    }
  }
  const app = childElements(m, 'application')[0];
  info.hasApplication = app !== undefined;
  for (const [key, name] of [
    ['debuggable', 'debuggable'],
    ['testOnly', 'testOnly'],
    ['hasCode', 'hasCode'],
    ['extractNativeLibs', 'extractNativeLibs'],
  ] as const) {
    const v = bool(app, name);
    if (v !== undefined) info[key] = v;
  }
  const sandbox = findAndroidAttr(m, 'targetSandboxVersion', AndroidAttr.targetSandboxVersion);
  if (sandbox) {
    const v = attrIntOrText(doc, sandbox);
    if (typeof v === 'number') info.targetSandboxVersion = v;
  }
  const names = (els: XmlElement[]): string[] =>
    els.map((e) => text(findAndroidAttr(e, 'name', AndroidAttr.name))).filter((n): n is string => n !== undefined && n !== '');
  info.usesFeatures = names(childElements(m, 'uses-feature'));
  info.permissions = names([
    ...childElements(m, 'uses-permission'),
    ...childElements(m, 'uses-permission-sdk-23'),
    ...childElements(m, 'uses-permission-sdk-m'),
  ]);
  info.usesSplits = names(childElements(m, 'uses-split'));
  info.hasUsesSdkLibrary = app !== undefined && childElements(app, 'uses-sdk-library').length > 0;
  return info;
}
