// Independent views of an APK from Debian's `aapt dump` (when installed), in the same
// normalised shape our models are reduced to, for oracle comparisons.
import { spawnSync } from 'node:child_process';
import { DataType, type ResourceTable } from '../../src/arsc/index.js';
import { type XmlDocument, type XmlElement } from '../../src/axml/index.js';

export function hasTool(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
}

function run(args: string[]): string {
  const r = spawnSync('aapt', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  return r.stdout;
}

/** "0xID t=0xTT d=0xDDDDDDDD" for every simple value, "0xID bag parent=0x.. count=N" for maps. */
export function aaptResourceLines(apk: string): string[] {
  const out: string[] = [];
  const lines = run(['dump', '--values', 'resources', apk]).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const simple = /^\s+resource (0x[0-9a-f]{8}) \S+: t=(0x[0-9a-f]{2}) d=(0x[0-9a-f]{8})/.exec(lines[i]);
    if (simple) out.push(`${simple[1]} t=${simple[2]} d=${simple[3]}`);
    const bag = /^\s+resource (0x[0-9a-f]{8}) \S+: <bag>/.exec(lines[i]);
    if (bag) {
      const m = /Parent=(0x[0-9a-f]{8})\(Resolved=0x[0-9a-f]{8}\), Count=(\d+)/.exec(lines[i + 1] ?? '');
      if (m) out.push(`${bag[1]} bag parent=${m[1]} count=${m[2]}`);
    }
  }
  return out.sort();
}

const h = (n: number, w: number): string => '0x' + (n >>> 0).toString(16).padStart(w, '0');

export function ourResourceLines(table: ResourceTable): string[] {
  const out: string[] = [];
  for (const p of table.packages) {
    for (const t of p.types) {
      for (const e of t.entries) {
        const id = h(((p.id << 24) | (t.id << 16) | e.index) >>> 0, 8);
        if (e.value.kind === 'simple') out.push(`${id} t=${h(e.value.value.dataType, 2)} d=${h(e.value.value.data, 8)}`);
        else out.push(`${id} bag parent=${h(e.value.parent, 8)} count=${e.value.items.length}`);
      }
    }
  }
  return out.sort();
}

/** "E name line" and "A name(0xid)=value" lines of `aapt dump xmltree`, prefixes dropped. */
export function aaptXmlLines(apk: string, path: string): string[] {
  const out: string[] = [];
  for (const line of run(['dump', 'xmltree', apk, path]).split('\n')) {
    const e = /^\s*E: (?:\S+:)?(\S+) \(line=(\d+)\)$/.exec(line);
    if (e) out.push(`E ${e[1]} ${e[2]}`);
    const a = /^\s*A: (?:[^=(]*:)?([^:(=]+)(?:\((0x[0-9a-f]{8})\))?=(@0x[0-9a-f]+|\?0x[0-9a-f]+|\(type 0x[0-9a-f]+\)0x[0-9a-f]+|\(null\)|")/.exec(line);
    if (a) out.push(`A ${a[1]}(${a[2] ?? '-'})=${a[3]}`);
  }
  return out;
}

export function ourXmlLines(doc: XmlDocument): string[] {
  const out: string[] = [];
  const walk = (el: XmlElement): void => {
    out.push(`E ${el.name} ${el.lineNumber}`);
    for (const a of el.attributes) {
      const { dataType: t, data: d } = a.typedValue;
      const value =
        t === DataType.NULL ? '(null)'
        : t === DataType.REFERENCE ? `@${h(d, 8)}`
        : t === DataType.ATTRIBUTE ? `?${h(d, 8)}`
        : t === DataType.STRING ? '"'
        : `(type 0x${t.toString(16)})0x${(d >>> 0).toString(16)}`;
      out.push(`A ${a.name}(${a.resourceId ? h(a.resourceId, 8) : '-'})=${value}`);
    }
    for (const c of el.children) if (c.kind === 'element') walk(c);
  };
  walk(doc.root);
  return out;
}
