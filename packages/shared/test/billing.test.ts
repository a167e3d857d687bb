import { expect } from 'chai';
import { ValidationError } from 'yup';
import {
  BILLING_MESSAGES,
  BRAZILIAN_STATES,
  billingDetailsSchema,
  formatTaxId,
  isValidCnpj,
  isValidCpf,
  normalizeCep,
  taxIdKind,
} from '../src/index.js';

const valid = {
  document: '529.982.247-25',
  name: 'Maria da Conceição',
  email: 'Financeiro@Example.com',
  cep: '01310100',
  street: 'Avenida Paulista',
  number: '1000',
  complement: '',
  district: 'Bela Vista',
  city: 'São Paulo',
  cityCode: '3550308',
  state: 'sp',
};

/** The field errors of a rejected input, field → message. */
async function fieldErrors(input: Record<string, unknown>): Promise<Record<string, string>> {
  try {
    await billingDetailsSchema.validate(input, { abortEarly: false });
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return Object.fromEntries(err.inner.map((e) => [e.path ?? '', e.message]));
  }
  return {};
}

describe('billing details: CPF and CNPJ', () => {
  it('isValidCpf_validBareAndFormatted_accepted', () => {
    expect(isValidCpf('52998224725')).to.equal(true);
    expect(isValidCpf('529.982.247-25')).to.equal(true);
    expect(isValidCpf(' 111.444.777-35 ')).to.equal(true);
  });

  it('isValidCpf_wrongCheckDigitsLengthOrLetters_refused', () => {
    expect(isValidCpf('52998224724')).to.equal(false);
    expect(isValidCpf('529.982.247-52')).to.equal(false);
    expect(isValidCpf('5299822472')).to.equal(false);
    expect(isValidCpf('529982247255')).to.equal(false);
    expect(isValidCpf('52998224A25')).to.equal(false);
    expect(isValidCpf('')).to.equal(false);
  });

  it('isValidCpf_allSameDigits_refusedThoughTheirCheckDigitsAddUp', () => {
    for (let d = 0; d <= 9; d++) expect(isValidCpf(String(d).repeat(11)), String(d)).to.equal(false);
  });

  it('isValidCnpj_numericBareAndFormatted_accepted', () => {
    expect(isValidCnpj('11222333000181')).to.equal(true);
    expect(isValidCnpj('11.222.333/0001-81')).to.equal(true);
    expect(isValidCnpj('11.444.777/0001-61')).to.equal(true);
  });

  it('isValidCnpj_alphanumericForm_acceptedWithItsCheckDigits', () => {
    // The Receita Federal's own example of the alphanumeric CNPJ.
    expect(isValidCnpj('12.ABC.345/01DE-35')).to.equal(true);
    expect(isValidCnpj('12abc34501de35')).to.equal(true);
    expect(isValidCnpj('12.ABC.345/01DE-36')).to.equal(false);
    // Letters are allowed only in the first 12 positions.
    expect(isValidCnpj('12ABC34501DE3A')).to.equal(false);
  });

  it('isValidCnpj_wrongDigitsOrAllSame_refused', () => {
    expect(isValidCnpj('11222333000182')).to.equal(false);
    expect(isValidCnpj('11.222.333/0001-18')).to.equal(false);
    expect(isValidCnpj('1122233300018')).to.equal(false);
    expect(isValidCnpj('00000000000000')).to.equal(false);
    expect(isValidCnpj('11111111111111')).to.equal(false);
    expect(isValidCnpj('11.222.333/0001-8!')).to.equal(false);
  });

  it('taxIdKind_tellsCpfFromCnpj', () => {
    expect(taxIdKind('529.982.247-25')).to.equal('cpf');
    expect(taxIdKind('11.222.333/0001-81')).to.equal('cnpj');
    expect(taxIdKind('12345')).to.equal(null);
  });

  it('formatTaxId_bare_punctuated', () => {
    expect(formatTaxId('52998224725')).to.equal('529.982.247-25');
    expect(formatTaxId('11222333000181')).to.equal('11.222.333/0001-81');
    expect(formatTaxId('12ABC34501DE35')).to.equal('12.ABC.345/01DE-35');
  });

  it('normalizeCep_eightDigitsWithOrWithoutDash', () => {
    expect(normalizeCep('01310100')).to.equal('01310-100');
    expect(normalizeCep('01310-100')).to.equal('01310-100');
    expect(normalizeCep('0131010')).to.equal(null);
    expect(normalizeCep('01310-10a')).to.equal(null);
  });

  it('states_the27FederativeUnits', () => {
    expect(BRAZILIAN_STATES).to.have.length(27);
    expect(new Set(BRAZILIAN_STATES).size).to.equal(27);
    expect(BRAZILIAN_STATES).to.include('DF');
  });
});

describe('billing details: schema', () => {
  it('valid_formattedInput_storedShape', async () => {
    const out = await billingDetailsSchema.validate(valid);
    expect(out).to.deep.equal({
      document: '52998224725',
      name: 'Maria da Conceição',
      email: 'financeiro@example.com',
      cep: '01310-100',
      street: 'Avenida Paulista',
      number: '1000',
      complement: null,
      district: 'Bela Vista',
      city: 'São Paulo',
      cityCode: '3550308',
      state: 'SP',
    });
  });

  it('cnpj_withoutCityCode_accepted', async () => {
    const out = await billingDetailsSchema.validate({ ...valid, document: '11.222.333/0001-81', name: 'Empresa Ação Ltda', cityCode: '' });
    expect(out.document).to.equal('11222333000181');
    expect(out.cityCode).to.equal(null);
  });

  it('invalid_everyFieldGetsItsPtBrMessage', async () => {
    const errors = await fieldErrors({
      document: '123.456.789-00',
      name: ' ',
      email: 'não-é-email',
      cep: '1234',
      street: '',
      number: '',
      district: '',
      city: '',
      cityCode: '12',
      state: 'XX',
    });
    expect(errors).to.deep.equal({
      document: BILLING_MESSAGES.documentInvalid,
      name: BILLING_MESSAGES.nameRequired,
      email: BILLING_MESSAGES.emailInvalid,
      cep: BILLING_MESSAGES.cepInvalid,
      street: BILLING_MESSAGES.streetRequired,
      number: BILLING_MESSAGES.numberRequired,
      district: BILLING_MESSAGES.districtRequired,
      city: BILLING_MESSAGES.cityRequired,
      cityCode: BILLING_MESSAGES.cityCodeInvalid,
      state: BILLING_MESSAGES.stateInvalid,
    });
  });

  it('missingDocument_andAllSameCpf_refused', async () => {
    expect((await fieldErrors({ ...valid, document: undefined })).document).to.equal(BILLING_MESSAGES.documentRequired);
    expect((await fieldErrors({ ...valid, document: '111.111.111-11' })).document).to.equal(BILLING_MESSAGES.documentInvalid);
  });

  it('hostileText_hiddenCharactersBecomeSpaces_andNonStringsAreTypeErrors', async () => {
    const out = await billingDetailsSchema.validate({ ...valid, name: 'Empresa\u202e\u0000 X' });
    expect(out.name).to.equal('Empresa X');
    const errors = await fieldErrors({ ...valid, document: { $gt: '' } });
    expect(errors).to.have.property('document');
  });
});

describe('Brasília time', () => {
  it('formatBrasiliaDateTime_utcMoment_threeHoursEarlierDayMonthYear', async () => {
    const { formatBrasiliaDateTime, brasiliaIsoDateTime } = await import('../src/index.js');
    expect(formatBrasiliaDateTime(new Date('2026-01-02T02:30:00Z'))).to.equal('01/01/2026 23:30');
    expect(brasiliaIsoDateTime(new Date('2026-01-02T02:30:09Z'))).to.equal('2026-01-01T23:30:09-03:00');
  });
});
