import { expect } from 'chai';
import { isBinaryXml, MAX_XML_DEPTH, parseBinaryXml } from '../src/axml/index.js';
import { ConverterError } from '../src/errors.js';
import { decodeXmlNodePb, encodeAapt } from '../src/proto/aapt.js';
import { xmlToProto, xmlToProtoNode, type ConversionWarning } from '../src/resources/index.js';
import { NONE, concat, chunk, resourceMap, stringPool, xmlCdata, xmlDoc, xmlEndEl, xmlEndNs, xmlStartEl, xmlStartNs } from './helpers/chunks.js';

/** A binary XML document over a string pool built by the caller (styles, UTF-8). */
function xmlDocWithPool(pool: Uint8Array, ids: number[], nodes: Uint8Array[]): Uint8Array {
  return chunk(0x0003, new Uint8Array(0), concat(pool, resourceMap(ids), ...nodes));
}

const ANDROID = 'http://schemas.android.com/apk/res/android';
// 0 orientation, 1 text, 2 android, 3 uri, 4 LinearLayout, 5 TextView, 6 vertical, 7 hello, 8 res/drawable/x.xml, 9 b, 10 note
const STRINGS = ['orientation', 'text', 'android', ANDROID, 'LinearLayout', 'TextView', 'vertical', 'hello', 'res/drawable/x.xml', 'b', 'note'];

export function sampleXml(opts: { attrSize?: number; utf8?: boolean } = {}): Uint8Array {
  return xmlDoc(
    STRINGS,
    [0x010100c4, 0x0101014f],
    [
      xmlStartNs(1, 2, 3),
      xmlStartEl(2, NONE, 4, [
        { ns: 3, name: 0, raw: 6, type: 0x10, data: 1 },
        { ns: 3, name: 1, raw: 7, type: 0x03, data: 7 },
      ], { attrSize: opts.attrSize, comment: 10 }),
      xmlStartEl(5, NONE, 5, [
        { ns: 3, name: 1, type: 0x01, data: 0x7f010000 },
        { name: 9, raw: 8, type: 0x03, data: 8 },
        { name: 9, type: 0x03, data: 8 },
        { name: 9, type: 0x12, data: 0 },
      ], { attrSize: opts.attrSize }),
      xmlCdata(6, 7),
      xmlEndEl(7, NONE, 5),
      xmlEndEl(8, NONE, 4),
      xmlEndNs(8, 2, 3),
    ],
    opts.utf8,
  );
}

function expectCode(fn: () => unknown, code: string): ConverterError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(ConverterError);
    expect((e as ConverterError).code).to.equal(code);
    return e as ConverterError;
  }
  throw new Error('expected a ConverterError');
}

describe('axml parser', () => {
  it('isBinaryXml_headers_sniffsXmlChunkOnly', () => {
    expect(isBinaryXml(sampleXml())).to.equal(true);
    expect(isBinaryXml(new TextEncoder().encode('<?xml version="1.0"?><a/>'))).to.equal(false);
    expect(isBinaryXml(new Uint8Array([3, 0]))).to.equal(false);
  });

  it('parseBinaryXml_sample_readsTreeNamespacesAttributesAndText', () => {
    for (const utf8 of [false, true]) {
      const doc = parseBinaryXml(sampleXml({ utf8 }));
      const root = doc.root;
      expect(root).to.deep.include({ name: 'LinearLayout', namespaceUri: '', lineNumber: 2, comment: 'note' });
      expect(root.namespaceDecls).to.deep.equal([{ prefix: 'android', uri: ANDROID, lineNumber: 1 }]);
      expect(root.attributes[0]).to.deep.equal({
        namespaceUri: ANDROID, name: 'orientation', nameIndex: 0, resourceId: 0x010100c4, rawValue: 'vertical',
        rawValueIndex: 6, typedValue: { dataType: 0x10, data: 1 },
      });
      const tv = root.children[0];
      expect(tv.kind).to.equal('element');
      if (tv.kind !== 'element') return;
      expect(tv.attributes.map((a) => [a.name, a.resourceId, a.rawValue])).to.deep.equal([
        ['text', 0x0101014f, undefined], ['b', 0, 'res/drawable/x.xml'], ['b', 0, undefined], ['b', 0, undefined],
      ]);
      expect(tv.children).to.deep.equal([{ kind: 'text', text: 'hello', lineNumber: 6, typedValue: { dataType: 0, data: 0 } }]);
    }
  });

  it('parseBinaryXml_attributeStrideLargerThan20_honoursAttributeSize', () => {
    const doc = parseBinaryXml(sampleXml({ attrSize: 28 }));
    expect(doc.root.attributes.map((a) => a.name)).to.deep.equal(['orientation', 'text']);
  });

  it('parseBinaryXml_unclosedEndElement_throwsBadBinaryXml', () => {
    const bytes = xmlDoc(['a'], [], [xmlEndEl(1, NONE, 0)]);
    expectCode(() => parseBinaryXml(bytes), 'BAD_BINARY_XML');
  });

  it('parseBinaryXml_textOutsideRoot_throwsBadBinaryXml', () => {
    expectCode(() => parseBinaryXml(xmlDoc(['a'], [], [xmlCdata(1, 0)])), 'BAD_BINARY_XML');
  });

  it('parseBinaryXml_noRoot_throwsWithErrorCodeOption', () => {
    expectCode(() => parseBinaryXml(xmlDoc(['a'], [], []), { errorCode: 'BAD_MANIFEST' }), 'BAD_MANIFEST');
  });

  it('parseBinaryXml_nestingDeeperThanLimit_throwsNestingTooDeep', () => {
    const nodes = Array.from({ length: MAX_XML_DEPTH + 1 }, (_, i) => xmlStartEl(i, NONE, 0));
    expectCode(() => parseBinaryXml(xmlDoc(['a'], [], nodes)), 'NESTING_TOO_DEEP');
  });

  it('parseBinaryXml_attributesPastNode_throwsWithOffset', () => {
    const bytes = sampleXml();
    const doc = Buffer.from(bytes);
    const el = doc.indexOf(Buffer.from([0x02, 0x01, 0x10, 0x00])); // first START_ELEMENT header
    doc.writeUInt16LE(50, el + 16 + 12); // attributeCount
    const err = expectCode(() => parseBinaryXml(new Uint8Array(doc)), 'BAD_BINARY_XML');
    expect(err.detail).to.match(/offset \d+/);
  });

  it('parseBinaryXml_everyTruncationAndByteFlip_throwsOnlyConverterErrors', () => {
    const bytes = sampleXml();
    for (let n = 0; n < bytes.length; n++) {
      const cut = bytes.slice(0, n);
      if (n >= 8) new DataView(cut.buffer).setUint32(4, n, true);
      try {
        parseBinaryXml(cut);
      } catch (e) {
        expect(e, `cut at ${n}`).to.be.instanceOf(ConverterError);
      }
    }
    let seed = 7;
    for (let round = 0; round < 3000; round++) {
      const b = bytes.slice();
      for (let k = 0; k < 3; k++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        b[seed % b.length] = seed >> 8;
      }
      try {
        xmlToProto(parseBinaryXml(b));
      } catch (e) {
        expect(e, `round ${round}`).to.be.instanceOf(ConverterError);
      }
    }
  });
});

describe('axml → aapt.pb.XmlNode', () => {
  it('xmlToProto_sample_emitsAapt2Shape', () => {
    const pb = decodeXmlNodePb(xmlToProto(parseBinaryXml(sampleXml())));
    expect(pb).to.deep.equal({
      source: { line_number: 2 },
      element: {
        namespace_declaration: [{ prefix: 'android', uri: ANDROID, source: { line_number: 1 } }],
        name: 'LinearLayout',
        attribute: [
          {
            namespace_uri: ANDROID, name: 'orientation', value: 'vertical', resource_id: 0x010100c4, source: {},
            compiled_item: { prim: { int_decimal_value: 1 } },
          },
          { namespace_uri: ANDROID, name: 'text', value: 'hello', resource_id: 0x0101014f },
        ],
        child: [
          {
            source: { line_number: 5 },
            element: {
              name: 'TextView',
              attribute: [
                { namespace_uri: ANDROID, name: 'text', resource_id: 0x0101014f, source: {}, compiled_item: { ref: { id: 0x7f010000 } } },
                { name: 'b', value: 'res/drawable/x.xml' },
                { name: 'b', source: {}, compiled_item: { file: { path: 'res/drawable/x.xml', type: 2 } } },
                { name: 'b', source: {}, compiled_item: { prim: { boolean_value: false } } },
              ],
              child: [{ text: 'hello', source: { line_number: 6 } }],
            },
          },
        ],
      },
    });
  });

  /** Bytes written straight from the document, and the bytes of its message through the encoder. */
  function bothWays(bytes: Uint8Array): [Buffer, Buffer] {
    return [Buffer.from(xmlToProto(parseBinaryXml(bytes))), Buffer.from(encodeAapt('XmlNode', xmlToProtoNode(parseBinaryXml(bytes))))];
  }

  it('xmlToProto_everyValueKind_sameBytesAsTheMessage', () => {
    // 0 a, 1 x\\y, 2 res/a.xml, 3 styled, 4 b, 5 ns, 6 p, 7 é☃😀
    const strings = ['a', 'x\\y', 'res/a.xml', 'styled', 'b', 'urn:n', 'p', 'é☃😀'];
    const values: [number, number][] = [
      [0x00, 0], [0x00, 1], [0x00, 7], [0x01, 0], [0x01, 0x7f010001], [0x02, 0x7f020002], [0x07, 0x7f030003], [0x08, 0x7f040004],
      [0x03, 0], [0x03, 2], [0x03, 3], [0x03, 7], [0x04, 0x3fc00000], [0x05, 0x1001], [0x06, 0x2002], [0x10, 0xffffffff], [0x11, 0xff],
      [0x12, 1], [0x1c, 0xff00ff00], [0x1d, 0xff0000], [0x1e, 0xf0f0], [0x1f, 0xf00], [0x99, 5],
    ];
    const attrs = values.map(([type, data], i) => ({ ns: i % 2 ? 5 : undefined, name: i % 3 ? 0 : 4, type, data, raw: i % 4 === 0 ? 1 : i % 4 === 1 ? 2 : undefined }));
    const bytes = concat(
      new Uint8Array(0),
      xmlDocWithPool(stringPool(strings, { utf8: true, styles: [[], [], [], [{ name: 4, first: 0, last: 2 }]] }), [0x01010001], [
        xmlStartNs(1, 6, 5),
        xmlStartEl(0, NONE, 0, attrs),
        xmlStartEl(3, 5, 7, [{ name: 0, raw: 1, type: 0x03, data: 1 }, { name: 4, raw: 7, type: 0x03, data: 7 }]),
        xmlCdata(0, 7),
        xmlEndEl(4, 5, 7),
        xmlCdata(5, 0),
        xmlEndEl(6, NONE, 0),
        xmlEndNs(6, 6, 5),
      ]),
    );
    const [direct, viaMessage] = bothWays(bytes);
    expect(direct.equals(viaMessage)).to.equal(true);
    const warnings: ConversionWarning[] = [];
    xmlToProto(parseBinaryXml(bytes), { warnings });
    expect(warnings.map((w) => w.code)).to.deep.equal(['NULL_VALUE_SANITIZED', 'UNKNOWN_VALUE_TYPE']);
  });

  it('xmlToProto_deepDocuments_sameBytesOrSameFailureAsTheEncoder', () => {
    const nested = (depth: number): Uint8Array =>
      xmlDoc(['a', 'v'], [0x01010001], [
        ...Array.from({ length: depth }, (_, i) => xmlStartEl(i + 1, NONE, 0, [{ name: 0, type: 0x07, data: 0x7f010000 }])),
        ...Array.from({ length: depth }, (_, i) => xmlEndEl(depth - i, NONE, 0)),
      ]);
    // 48 elements deep, the innermost attribute's dynamic reference is the deepest message the
    // encoder takes; one more fails it, directly or not.
    for (const depth of [47, 48]) {
      const [direct, viaMessage] = bothWays(nested(depth));
      expect(direct.equals(viaMessage), `depth ${depth}`).to.equal(true);
    }
    for (const depth of [49, 60]) {
      expect(() => encodeAapt('XmlNode', xmlToProtoNode(parseBinaryXml(nested(depth))))).to.throw('max depth exceeded');
      expect(() => xmlToProto(parseBinaryXml(nested(depth))), `depth ${depth}`).to.throw('max depth exceeded');
    }
  });

  it('xmlToProto_sameDocumentTwice_identicalBytes', () => {
    const a = xmlToProto(parseBinaryXml(sampleXml()));
    const b = xmlToProto(parseBinaryXml(sampleXml()));
    expect(Buffer.from(a).equals(Buffer.from(b))).to.equal(true);
  });
});
