import { ConverterError } from '../errors.js';
import { DataType } from '../arsc/values.js';
import { NO_STRING, type XmlAttribute, type XmlDocument, type XmlElement, type XmlNode } from '../axml/model.js';
import { ANDROID_NS, AndroidAttr, attrIntOrText, attrText, findAndroidAttr } from './manifest.js';
import { apiLevelForCodename } from './sdkCodenames.js';
import { type ConversionWarning } from './valueProto.js';

export interface ManifestRepairOptions {
  versionCode?: number;
  versionName?: string;
}

export interface ManifestRepairResult {
  doc: XmlDocument;
  warnings: ConversionWarning[];
}

/** Attributes bundletool injects into APKs it generates (and injects again itself). */
export const BUNDLETOOL_ATTRIBUTES: readonly string[] = ['isSplitRequired', 'requiredSplitTypes', 'splitTypes'];

/** <meta-data> names bundletool, Play and source stamping inject. */
export const BUNDLETOOL_METADATA: readonly string[] = [
  'com.android.vending.splits',
  'com.android.vending.splits.required',
  'com.android.vending.derived.apk.id',
  'com.android.stamp.source',
  'com.android.stamp.type',
  'com.android.dynamic.apk.fused.modules',
];

const MAX_VERSION_CODE = 0x7fffffff;

/** Keeps the string pool and resource map consistent while attributes are added. */
class StringTable {
  readonly strings: string[];
  readonly resourceMap: number[];

  constructor(doc: XmlDocument) {
    this.strings = [...doc.strings];
    this.resourceMap = [...doc.resourceMap];
  }

  /** Pool index of an attribute name carrying `id` in the resource map. */
  nameIndex(name: string, id: number): number {
    for (let i = 0; i < this.resourceMap.length; i++) {
      if (this.resourceMap[i] === id && this.strings[i] === name) return i;
    }
    const index = this.strings.push(name) - 1;
    while (this.resourceMap.length < index) this.resourceMap.push(0);
    this.resourceMap.push(id);
    return index;
  }

  valueIndex(value: string): number {
    const found = this.strings.indexOf(value);
    return found >= 0 ? found : this.strings.push(value) - 1;
  }
}

function sameAttr(a: XmlAttribute, name: string, id: number): boolean {
  return a.resourceId === id || (a.namespaceUri === ANDROID_NS && a.name === name);
}

/** Inserts (or replaces) an attribute where aapt2 orders it: ids ascending, id-less ones last. */
function putAttr(attrs: readonly XmlAttribute[], attr: XmlAttribute): XmlAttribute[] {
  const rest = attrs.filter((a) => !sameAttr(a, attr.name, attr.resourceId));
  const at = rest.findIndex((a) => a.resourceId === 0 || a.resourceId >>> 0 > attr.resourceId >>> 0);
  rest.splice(at < 0 ? rest.length : at, 0, attr);
  return rest;
}

function intAttr(t: StringTable, name: string, id: number, value: number): XmlAttribute {
  return {
    namespaceUri: ANDROID_NS,
    name,
    nameIndex: t.nameIndex(name, id),
    resourceId: id,
    rawValueIndex: NO_STRING,
    typedValue: { dataType: DataType.INT_DEC, data: value >>> 0 },
  };
}

function stringAttr(t: StringTable, name: string, id: number, value: string): XmlAttribute {
  const index = t.valueIndex(value);
  return {
    namespaceUri: ANDROID_NS,
    name,
    nameIndex: t.nameIndex(name, id),
    resourceId: id,
    rawValue: value,
    rawValueIndex: index,
    typedValue: { dataType: DataType.STRING, data: index },
  };
}

function isElement(n: XmlNode, name: string): n is XmlElement {
  return n.kind === 'element' && n.namespaceUri === '' && n.name === name;
}

/**
 * Fixes what bundletool and Play need in a manifest, typed as aapt2 compiles it: versionCode
 * (missing → 1, or the option), versionName (option), codename SDK levels → numbers, and removes
 * what bundletool injects into the APKs it generates. Each change is reported in pt-BR.
 */
export function repairManifest(doc: XmlDocument, opts: ManifestRepairOptions = {}): ManifestRepairResult {
  const warnings: ConversionWarning[] = [];
  const t = new StringTable(doc);
  let root = doc.root;
  if (!root.namespaceDecls.some((d) => d.uri === ANDROID_NS)) {
    root = { ...root, namespaceDecls: [...root.namespaceDecls, { prefix: 'android', uri: ANDROID_NS, lineNumber: 0 }] };
  }
  root = { ...root, attributes: repairVersion(doc, root, t, opts, warnings) };

  const children = root.children.map((c) => {
    if (isElement(c, 'uses-sdk')) return repairUsesSdk(doc, c, t, warnings);
    if (isElement(c, 'application')) return cleanApplication(doc, c, warnings);
    return c;
  });
  root = { ...root, children, attributes: dropInjectedAttrs(root.attributes, 'manifest', warnings) };
  return { doc: { ...doc, strings: t.strings, resourceMap: t.resourceMap, root }, warnings };
}

function repairVersion(
  doc: XmlDocument,
  root: XmlElement,
  t: StringTable,
  opts: ManifestRepairOptions,
  warnings: ConversionWarning[],
): XmlAttribute[] {
  let attrs = [...root.attributes];
  const existing = findAndroidAttr(root, 'versionCode', AndroidAttr.versionCode);
  const current = existing ? attrIntOrText(doc, existing) : undefined;
  if (opts.versionCode !== undefined) {
    if (!Number.isInteger(opts.versionCode) || opts.versionCode < 0 || opts.versionCode > MAX_VERSION_CODE) {
      throw new ConverterError('INVALID_OPTIONS', `versionCode ${opts.versionCode} is not an integer in 0..${MAX_VERSION_CODE}`);
    }
    attrs = putAttr(attrs, intAttr(t, 'versionCode', AndroidAttr.versionCode, opts.versionCode));
    warnings.push({
      code: 'VERSION_CODE_OVERRIDDEN',
      message: `O versionCode foi definido como ${opts.versionCode}${current !== undefined ? ` (era ${current})` : ''}.`,
    });
  } else if (!existing) {
    attrs = putAttr(attrs, intAttr(t, 'versionCode', AndroidAttr.versionCode, 1));
    warnings.push({ code: 'VERSION_CODE_MISSING', message: 'O manifesto não declarava android:versionCode; foi definido como 1.' });
  } else if (existing.typedValue.dataType !== DataType.INT_DEC || existing.resourceId !== AndroidAttr.versionCode) {
    const value = typeof current === 'number' && current >= 0 && current <= MAX_VERSION_CODE ? current : 1;
    attrs = putAttr(attrs, intAttr(t, 'versionCode', AndroidAttr.versionCode, value));
    warnings.push({
      code: 'VERSION_CODE_NORMALIZED',
      message: `O android:versionCode "${attrText(doc, existing)}" foi regravado como o inteiro decimal ${value}.`,
    });
  }
  if (opts.versionName !== undefined) {
    const old = findAndroidAttr(root, 'versionName', AndroidAttr.versionName);
    attrs = putAttr(attrs, stringAttr(t, 'versionName', AndroidAttr.versionName, opts.versionName));
    warnings.push({
      code: 'VERSION_NAME_OVERRIDDEN',
      message: `O versionName foi definido como "${opts.versionName}"${old ? ` (era "${attrText(doc, old)}")` : ''}.`,
    });
  }
  return attrs;
}

function repairUsesSdk(doc: XmlDocument, el: XmlElement, t: StringTable, warnings: ConversionWarning[]): XmlElement {
  let attrs = [...el.attributes];
  for (const key of ['minSdkVersion', 'targetSdkVersion'] as const) {
    const a = findAndroidAttr(el, key, AndroidAttr[key]);
    if (!a) continue;
    const v = attrIntOrText(doc, a);
    const alreadyTyped = a.typedValue.dataType === DataType.INT_DEC && a.resourceId === AndroidAttr[key];
    if (typeof v === 'number') {
      if (alreadyTyped) continue;
      attrs = putAttr(attrs, intAttr(t, key, AndroidAttr[key], v));
      warnings.push({ code: 'SDK_VERSION_NORMALIZED', message: `O android:${key} "${attrText(doc, a)}" foi regravado como o inteiro decimal ${v}.` });
      continue;
    }
    const level = apiLevelForCodename(v);
    if (level === undefined) {
      warnings.push({ code: 'SDK_CODENAME_UNKNOWN', message: `O android:${key} "${v}" não é um codinome de versão conhecido e foi mantido.` });
      continue;
    }
    attrs = putAttr(attrs, intAttr(t, key, AndroidAttr[key], level));
    warnings.push({ code: 'SDK_CODENAME_REPLACED', message: `O android:${key} "${v}" foi convertido para o nível de API ${level}.` });
  }
  return { ...el, attributes: attrs };
}

function dropInjectedAttrs(attrs: readonly XmlAttribute[], where: string, warnings: ConversionWarning[]): XmlAttribute[] {
  return attrs.filter((a) => {
    const injected = a.namespaceUri === ANDROID_NS && BUNDLETOOL_ATTRIBUTES.includes(a.name);
    if (injected) {
      warnings.push({
        code: 'BUNDLETOOL_ATTRIBUTE_REMOVED',
        message: `O atributo android:${a.name} de <${where}>, injetado pelo bundletool, foi removido.`,
      });
    }
    return !injected;
  });
}

function cleanApplication(doc: XmlDocument, app: XmlElement, warnings: ConversionWarning[]): XmlElement {
  const children = app.children.filter((c) => {
    if (!isElement(c, 'meta-data')) return true;
    const nameAttr = findAndroidAttr(c, 'name', AndroidAttr.name);
    const name = nameAttr ? attrText(doc, nameAttr) : '';
    if (!BUNDLETOOL_METADATA.includes(name)) return true;
    warnings.push({
      code: 'BUNDLETOOL_METADATA_REMOVED',
      message: `O <meta-data> "${name}", injetado pelo bundletool ou pela Play Store, foi removido.`,
    });
    return false;
  });
  return { ...app, children, attributes: dropInjectedAttrs(app.attributes, 'application', warnings) };
}
