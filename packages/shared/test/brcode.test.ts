import { expect } from 'chai';
import { brCodeCrc, checkPixCode, crc16CcittFalse, parseTlv, tlv } from '../src/index.js';

// The example of BCB's "Manual de Padrões para Iniciação do Pix" (static code, CRC 1D3D).
const BCB_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

describe('brcode', () => {
  it('crc16CcittFalse_standardCheckInput_0x29B1', () => {
    expect(crc16CcittFalse('123456789')).to.equal(0x29b1);
  });

  it('checkPixCode_bcbManualExample_valid', () => {
    expect(checkPixCode(BCB_EXAMPLE)).to.deep.equal({ valid: true });
    expect(brCodeCrc(BCB_EXAMPLE.slice(0, -4))).to.equal('1D3D');
  });

  it('checkPixCode_lowercaseAndPunctuation_stillValid', () => {
    // A "digits and uppercase only" check would refuse this real-shaped code (docs/decisions.md "PIX code check").
    expect(BCB_EXAMPLE).to.match(/[a-z.]/);
    expect(checkPixCode(BCB_EXAMPLE).valid).to.equal(true);
  });

  it('checkPixCode_oneCharacterChanged_badCrc', () => {
    const tampered = BCB_EXAMPLE.replace('Fulano', 'Fulana');
    expect(checkPixCode(tampered)).to.deep.equal({ valid: false, problem: 'bad_crc' });
  });

  it('checkPixCode_lowercaseCrcHex_badCrc', () => {
    expect(checkPixCode(BCB_EXAMPLE.slice(0, -4) + '1d3d')).to.deep.equal({ valid: false, problem: 'bad_crc' });
  });

  it('checkPixCode_noCrcField_badCrc', () => {
    expect(checkPixCode(BCB_EXAMPLE.slice(0, -8) + '6204ABCD')).to.deep.equal({ valid: false, problem: 'bad_crc' });
  });

  it('checkPixCode_shorterThan50_tooShort', () => {
    expect(checkPixCode('000201' + '0'.repeat(43))).to.deep.equal({ valid: false, problem: 'too_short' });
  });

  it('checkPixCode_wrongFirstField_badPrefix', () => {
    const body = '000202' + BCB_EXAMPLE.slice(6, -4);
    expect(checkPixCode(body + brCodeCrc(body))).to.deep.equal({ valid: false, problem: 'bad_prefix' });
  });

  it('checkPixCode_withPointOfInitiationField_validWithout00020126Prefix', () => {
    const body = '000201010212' + BCB_EXAMPLE.slice(6, -4);
    const code = body + brCodeCrc(body);
    expect(code.startsWith('00020126')).to.equal(false);
    expect(checkPixCode(code).valid).to.equal(true);
  });

  it('parseTlv_bcbExample_fieldsInOrder', () => {
    const fields = parseTlv(BCB_EXAMPLE)!;
    expect(fields.map((f) => f.id)).to.deep.equal(['00', '26', '52', '53', '58', '59', '60', '62', '63']);
    expect(parseTlv(fields[1].value)!.map((f) => f.value)).to.deep.equal(['br.gov.bcb.pix', '123e4567-e12b-12d1-a456-426655440000']);
  });

  it('parseTlv_lengthPastEnd_undefined', () => {
    expect(parseTlv('000201265')).to.equal(undefined);
    expect(parseTlv('00X2AB')).to.equal(undefined);
  });

  it('tlv_valueOver99_throws', () => {
    expect(tlv('59', 'abc')).to.equal('5903abc');
    expect(() => tlv('59', 'x'.repeat(100))).to.throw(RangeError);
  });
});
