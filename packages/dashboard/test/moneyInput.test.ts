import { expect } from 'chai';
import { MONEY_INPUT_MESSAGES } from '@aabify/shared';
import { moneyText, pasteMoney, typeMoney } from '../src/lib/moneyInput';

/** Types text key by key into the BRL field, as a person would. */
function typeKeys(keys: string, start = ''): ReturnType<typeof typeMoney> {
  let state = { text: start, cents: null as number | null } as ReturnType<typeof typeMoney>;
  for (const k of keys) state = typeMoney(state.text, state.text + k);
  return state;
}

describe('BRL field', () => {
  it('typeMoney_commaTyped_1990CentsShownAs19Comma90', () => {
    expect(typeKeys('19,90')).to.deep.equal({ text: '19,90', cents: 1990 });
  });
  it('typeMoney_dotTypedAsDecimal_sameAmount', () => {
    expect(typeKeys('19.90')).to.deep.equal({ text: '19,90', cents: 1990 });
    expect(typeKeys('19.9')).to.deep.equal({ text: '19,9', cents: 1990 });
  });
  it('typeMoney_thousands_groupedAsOneTypes', () => {
    expect(typeKeys('1234').text).to.equal('1.234');
    expect(typeKeys('1234,56')).to.deep.equal({ text: '1.234,56', cents: 123456 });
    // Deleting a digit from '1.234' keeps thousands, not a decimal point.
    expect(typeMoney('1.234', '1.23')).to.deep.equal({ text: '123', cents: 12300 });
  });
  it('typeMoney_thirdDecimalOrLetters_messageOrIgnored', () => {
    expect(typeKeys('19,999').error).to.equal(MONEY_INPUT_MESSAGES.tooManyDecimals);
    expect(typeKeys('1a9')).to.deep.equal({ text: '19', cents: 1900 });
    expect(typeKeys('-5')).to.deep.equal({ text: '5', cents: 500 });
  });
  it('pasteMoney_anyStyle_sameAmount', () => {
    expect(pasteMoney('R$ 1.234,56')).to.deep.equal({ text: '1.234,56', cents: 123456 });
    expect(pasteMoney('1,234.56').cents).to.equal(123456);
    expect(moneyText(199000)).to.equal('1.990,00');
  });
});
