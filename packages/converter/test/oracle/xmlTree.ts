/**
 * Parses and normalises `aapt2 dump xmltree` output, so the manifest and the res/ XML files of a
 * source APK can be compared element by element and attribute by attribute (line numbers
 * included) with those of the universal APK bundletool builds from our AAB.
 *
 * Normalisations, applied to both sides alike:
 * - the `<meta-data>` bundletool injects (`com.android.vending.splits` ...) and split attributes
 *   (`isSplitRequired`, `split` ...) are removed;
 * - the raw string of a typed value, `=true (Raw: "true")`, is reduced to the typed value: the
 *   proto format keeps no raw string beside a compiled non-string value, and Android reads the
 *   typed one;
 * - whitespace runs in text nodes become one space, as aapt2's flattener writes them;
 * - what the engine repaired and reported in its warnings (an attribute it added or fixed, an
 *   element it removed) is taken out of both sides.
 */

export interface DumpNode {
  /** The line as dumped, without indentation: `E: manifest (line=2)`, `A: ...`, `N: ...`, `T: ...`. */
  text: string;
  indent: number;
  /** Attribute lines (`A:`) of an element. */
  attributes: DumpNode[];
  /** Child elements, namespaces and text nodes. */
  children: DumpNode[];
}

/** Builds the tree: `A:` lines belong to the element above them, the rest nest by indentation. */
export function parseXmlTree(lines: readonly string[]): DumpNode[] {
  const roots: DumpNode[] = [];
  const stack: DumpNode[] = [];
  for (const raw of lines) {
    if (raw.trim() === '') continue;
    const indent = raw.length - raw.trimStart().length;
    const node: DumpNode = { text: raw.trim(), indent, attributes: [], children: [] };
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    if (node.text.startsWith('A:')) {
      if (parent) parent.attributes.push(node);
      else roots.push(node);
      continue;
    }
    if (parent) parent.children.push(node);
    else roots.push(node);
    stack.push(node);
  }
  return roots;
}

export function printXmlTree(nodes: readonly DumpNode[]): string[] {
  const out: string[] = [];
  const walk = (n: DumpNode): void => {
    out.push(`${' '.repeat(n.indent)}${n.text}`);
    for (const a of n.attributes) out.push(`${' '.repeat(a.indent)}${a.text}`);
    for (const c of n.children) walk(c);
  };
  for (const n of nodes) walk(n);
  return out;
}

export interface DumpAttribute {
  /** Namespace URI, '' when none. */
  namespace: string;
  name: string;
  /** `0x0101021b`, or '' when the attribute has no resource id. */
  resourceId: string;
  /** Everything after `=`: `"1.0" (Raw: "1.0")`, `@0x7f060000`, `true`. */
  value: string;
}

/** Splits an `A:` line; returns undefined for anything else. */
export function parseAttribute(text: string): DumpAttribute | undefined {
  const m = /^A: ([^=(]*?)(?:\((0x[0-9a-fA-F]+)\))?=(.*)$/.exec(text);
  if (!m) return undefined;
  const qualified = m[1];
  const colon = qualified.lastIndexOf(':');
  return {
    namespace: colon >= 0 ? qualified.slice(0, colon) : '',
    name: colon >= 0 ? qualified.slice(colon + 1) : qualified,
    resourceId: m[2] ?? '',
    value: m[3],
  };
}

/** `E: meta-data (line=12)` -> `meta-data`. */
export function elementName(text: string): string | undefined {
  return /^E: (\S+)/.exec(text)?.[1];
}

/** A string value of an element's attribute by local name (`name` -> `com.android.vending.splits`). */
function stringAttribute(node: DumpNode, name: string): string | undefined {
  for (const a of node.attributes) {
    const attr = parseAttribute(a.text);
    if (attr?.name === name) return /^"((?:[^"\\]|\\.)*)"/.exec(attr.value)?.[1];
  }
  return undefined;
}

/** `<meta-data android:name=...>` values bundletool adds to (or that mark) a generated APK. */
export const BUNDLETOOL_META_DATA = new Set([
  'com.android.dynamic.apk.fused.modules',
  'com.android.vending.splits',
  'com.android.vending.splits.required',
  'com.android.vending.derived.apk.id',
  'com.android.stamp.source',
  'com.android.stamp.type',
]);

/** Manifest attributes bundletool sets on split-aware APKs. */
export const SPLIT_ATTRIBUTES = new Set(['isSplitRequired', 'requiredSplitTypes', 'splitTypes', 'split', 'isFeatureSplit', 'configForSplit']);

/** What the engine said it repaired: attributes and elements that may differ. */
export interface RepairAllowance {
  attributes: ReadonlySet<string>;
  elements: ReadonlySet<string>;
}

export const NO_REPAIRS: RepairAllowance = { attributes: new Set(), elements: new Set() };

export interface NormaliseOptions {
  /** Strip bundletool's injected meta-data and split attributes (the manifest only). */
  manifest?: boolean;
  repairs?: RepairAllowance;
}

/**
 * Collapses whitespace in a text node (`T: ' Push\n'`): aapt2 keeps it in the proto, but its
 * binary flattener, which bundletool runs, turns each run of whitespace into one space.
 */
export function collapseTextWhitespace(text: string): string {
  if (!text.startsWith('T: ')) return text;
  return text.replace(/(?:\\[ntr]|\s)+/g, ' ');
}

/** Drops the raw string beside a typed (non-string) value. */
export function stripRawOfTypedValue(value: string): string {
  if (value.startsWith('"')) return value;
  return value.replace(/ \(Raw: "(?:[^"\\]|\\.)*"\)$/, '');
}

export function normaliseXmlTree(nodes: readonly DumpNode[], options: NormaliseOptions = {}): DumpNode[] {
  const repairs = options.repairs ?? NO_REPAIRS;
  const keepElement = (n: DumpNode): boolean => {
    const name = elementName(n.text);
    if (name === undefined) return true;
    if (repairs.elements.has(name)) return false;
    if (options.manifest && name === 'meta-data') {
      const metaName = stringAttribute(n, 'name');
      if (metaName !== undefined && BUNDLETOOL_META_DATA.has(metaName)) return false;
    }
    return true;
  };
  const keepAttribute = (a: DumpNode): boolean => {
    const attr = parseAttribute(a.text);
    if (!attr) return true;
    if (repairs.attributes.has(attr.name)) return false;
    return !(options.manifest && SPLIT_ATTRIBUTES.has(attr.name));
  };
  const walk = (n: DumpNode): DumpNode => ({
    text: collapseTextWhitespace(n.text),
    indent: n.indent,
    attributes: n.attributes.filter(keepAttribute).map((a) => {
      const attr = parseAttribute(a.text);
      if (!attr) return a;
      const value = stripRawOfTypedValue(attr.value);
      return { ...a, text: value === attr.value ? a.text : a.text.slice(0, a.text.length - attr.value.length) + value };
    }),
    children: n.children.filter(keepElement).map(walk),
  });
  return nodes.filter(keepElement).map(walk);
}

/** Convenience: lines in, normalised lines out. */
export function normaliseXmlDump(lines: readonly string[], options: NormaliseOptions = {}): string[] {
  return printXmlTree(normaliseXmlTree(parseXmlTree(lines), options));
}

/** Every element and attribute local name in a dump (candidates a warning may name). */
export function namesInDump(lines: readonly string[]): { attributes: Set<string>; elements: Set<string> } {
  const attributes = new Set<string>();
  const elements = new Set<string>();
  for (const l of lines) {
    const t = l.trim();
    const attr = parseAttribute(t);
    if (attr) attributes.add(attr.name);
    const el = elementName(t);
    if (el) elements.add(el);
  }
  return { attributes, elements };
}
