import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseResourceTable } from '../src/arsc/index.js';
import { AAPT_PROTO, decodeResourceTablePb, decodeXmlNodePb, encodeAapt } from '../src/proto/index.js';
import type { PbResourceTable } from '../src/proto/aapt.js';
import { writeResourceTable } from '../src/resources/tableBytes.js';
import { tableViewOf } from '../src/validate/table.js';
import {
  buildResourceTableProto,
  isBinaryXml,
  listReferencedFiles,
  parseBinaryXml,
  readManifest,
  repairManifest,
  resourceTableToProto,
  tableSummary,
  xmlToProto,
  xmlToProtoNode,
  type ConversionWarning,
} from '../src/resources/index.js';
import { aaptResourceLines, aaptXmlLines, hasTool, ourResourceLines, ourXmlLines } from './helpers/aaptDump.js';
import { corpusApks, corpusDir, TestApk } from './helpers/apk.js';
import { missingPrerequisite } from './helpers/oracles.js';

type Obj = Record<string, unknown>;

/** Checks what aapt2's proto reader would crash on (docs/aab-format.md "Validation: aapt2's proto reader") in a decoded table. */
function checkTable(pb: Obj): void {
  const oneof = (o: Obj, keys: string[], what: string): void => {
    const set = keys.filter((k) => o[k] !== undefined);
    expect(set, `${what} has exactly one member`).to.have.length(1);
  };
  const item = (i: Obj): void => {
    oneof(i, ['ref', 'str', 'raw_str', 'styled_str', 'file', 'id', 'prim'], 'Item');
    if (i.prim) oneof(i.prim as Obj, Object.keys(i.prim as Obj), 'Primitive');
    if (i.ref) expect((i.ref as Obj).name, 'no reference names').to.equal(undefined);
  };
  const overlayables = ((pb.overlayable as Obj[] | undefined) ?? []).length;
  for (const p of (pb.package as Obj[] | undefined) ?? []) {
    for (const t of (p.type as Obj[] | undefined) ?? []) {
      expect(t.type_id, 'type_id set').to.not.equal(undefined);
      for (const e of (t.entry as Obj[] | undefined) ?? []) {
        expect(e.entry_id, 'entry_id set').to.not.equal(undefined);
        const configs = new Set<string>();
        for (const cv of (e.config_value as Obj[]) ?? []) {
          const key = JSON.stringify(cv.config ?? {});
          expect(configs.has(key), `duplicate config in ${t.name}/${e.name}`).to.equal(false);
          configs.add(key);
          const v = cv.value as Obj;
          oneof(v, ['item', 'compound_value'], 'Value');
          if (v.item) item(v.item as Obj);
          else {
            const c = v.compound_value as Obj;
            oneof(c, ['attr', 'style', 'styleable', 'array', 'plural', 'macro'], 'CompoundValue');
            for (const se of (get(c, 'style', 'entry') as Obj[] | undefined) ?? []) item(se.item as Obj);
            for (const ae of (get(c, 'array', 'element') as Obj[] | undefined) ?? []) item(ae.item as Obj);
            for (const pe of (get(c, 'plural', 'entry') as Obj[] | undefined) ?? []) item(pe.item as Obj);
          }
        }
        const oi = e.overlayable_item as Obj | undefined;
        if (oi) expect((oi.overlayable_idx as number | undefined) ?? 0).to.be.lessThan(overlayables);
      }
    }
  }
}

const get = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);

function manifestRow(apk: string): Record<string, string> | undefined {
  const lines = readFileSync(join(corpusDir(), 'manifest.tsv'), 'utf8').trim().split('\n');
  const head = lines[0].split('\t');
  const row = lines.map((l) => l.split('\t')).find((c) => c[0] === basename(apk));
  return row && Object.fromEntries(head.map((k, i) => [k, row[i]]));
}

describe('resources over the corpus', function () {
  const apks = corpusApks();
  before(function () {
    if (apks.length === 0) {
      missingPrerequisite(this, `the APK corpus at ${corpusDir()} (set AABIFY_CORPUS)`);
    }
  });
  const withAapt = hasTool('aapt');
  const withProtoc = hasTool('protoc');
  const protoDir = mkdtempSync(join(tmpdir(), 'aabify-proto-'));
  writeFileSync(join(protoDir, 'aapt.proto'), AAPT_PROTO);

  for (const path of apks) {
    const name = basename(path, '.apk');
    it(`corpus_${name}_tableManifestAndXmlConvert`, function () {
      const apk = TestApk.open(path);
      const manifestBytes = apk.read('AndroidManifest.xml')!;
      const manifest = parseBinaryXml(manifestBytes, { errorCode: 'BAD_MANIFEST' });
      const info = readManifest(manifest);
      const row = manifestRow(path);
      if (row) {
        expect(info.packageName).to.equal(row.package);
        if (row.versionCode !== '-') expect(info.versionCode).to.equal(Number(row.versionCode));
        if (row.minSdk !== '-') expect(String(info.minSdk)).to.equal(row.minSdk);
      }
      const repaired = repairManifest(manifest, {});
      expect(repaired.doc.root.attributes.some((a) => a.resourceId === 0x0101021b)).to.equal(true);
      expect(decodeXmlNodePb(xmlToProto(repaired.doc)).element).to.not.equal(undefined);

      const arsc = apk.read('resources.arsc');
      if (!arsc) return;
      const table = parseResourceTable(arsc);
      const files = listReferencedFiles(table);
      const xml = new Set<string>();
      for (const f of files) {
        const bytes = apk.read(f);
        if (!bytes || !isBinaryXml(bytes)) continue;
        const doc = parseBinaryXml(bytes);
        const written = xmlToProto(doc);
        // Written straight from the document: the bytes of its message through the encoder.
        expect(Buffer.from(written).equals(encodeAapt('XmlNode', xmlToProtoNode(doc))), f).to.equal(true);
        const node = decodeXmlNodePb(written);
        expect(node.element, f).to.not.equal(undefined);
        xml.add(f);
      }
      const warnings: ConversionWarning[] = [];
      const pb = resourceTableToProto(table, { xmlFilePaths: xml, warnings });
      // Written straight from the table: the bytes of its message through the encoder, the same warnings.
      const messageWarnings: ConversionWarning[] = [];
      expect(Buffer.from(pb).equals(encodeAapt('ResourceTable', buildResourceTableProto(table, { xmlFilePaths: xml, warnings: messageWarnings }))), 'resources.arsc').to.equal(true);
      expect(warnings).to.deep.equal(messageWarnings);
      // What the validators read of it: the view of the decoded bytes.
      expect(writeResourceTable(table, { xmlFilePaths: xml }).view).to.deep.equal(tableViewOf(decodeResourceTablePb(pb) as unknown as PbResourceTable));
      checkTable(decodeResourceTablePb(pb));
      const summary = tableSummary(table);
      expect(summary.typeCount).to.be.at.most(summary.entryCount);
      if (row && Number(row.locales_count) > 0) expect(summary.locales.length).to.be.greaterThan(0);

      if (withProtoc) {
        const r = spawnSync('protoc', ['--decode', 'aapt.pb.ResourceTable', '-I', protoDir, 'aapt.proto'], { input: pb, maxBuffer: 1 << 28 });
        expect(r.status, String(r.stderr)).to.equal(0);
      }
    });

    it(`corpus_${name}_modelsAgreeWithAaptDump`, function () {
      if (!withAapt) {
        missingPrerequisite(this, "Debian's aapt (apt-get install -y aapt)");
      }
      const apk = TestApk.open(path);
      expect(ourXmlLines(parseBinaryXml(apk.read('AndroidManifest.xml')!))).to.deep.equal(aaptXmlLines(path, 'AndroidManifest.xml'));
      const arsc = apk.read('resources.arsc');
      if (!arsc) return;
      const table = parseResourceTable(arsc);
      expect(ourResourceLines(table)).to.deep.equal(aaptResourceLines(path));
      const layouts = listReferencedFiles(table).filter((f) => f.startsWith('res/layout')).slice(0, 3);
      for (const f of layouts) {
        const bytes = apk.read(f);
        if (bytes && isBinaryXml(bytes)) expect(ourXmlLines(parseBinaryXml(bytes)), f).to.deep.equal(aaptXmlLines(path, f));
      }
    });
  }
});
