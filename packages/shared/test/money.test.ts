import { expect } from 'chai';
import { formatMoney, fromCents, hasAtMostTwoDecimals, isCurrency, toCents } from '../src/index.js';

describe('money', () => {
  it('formatMoney_brlCents_ptBrWithThousandsDotAndDecimalComma', () => {
    expect(formatMoney(123456)).to.equal('R$ 1.234,56');
    expect(formatMoney(5)).to.equal('R$ 0,05');
    expect(formatMoney(0)).to.equal('R$ 0,00');
    expect(formatMoney(100000000)).to.equal('R$ 1.000.000,00');
    expect(formatMoney(1990, 'BRL')).to.equal('R$ 19,90');
  });

  it('formatMoney_negative_signBeforeSymbol', () => {
    expect(formatMoney(-150)).to.equal('-R$ 1,50');
  });

  it('formatMoney_otherCurrencies_theirSymbols', () => {
    expect(formatMoney(4999, 'USD')).to.equal('US$ 49,99');
    expect(formatMoney(123456789, 'EUR')).to.equal('€ 1.234.567,89');
  });

  it('toCents_majorUnits_roundedIntegerCents', () => {
    expect(toCents(19.9)).to.equal(1990);
    expect(toCents(0.1 + 0.2)).to.equal(30);
    expect(toCents(1234.56)).to.equal(123456);
    expect(fromCents(1990)).to.equal(19.9);
  });

  it('hasAtMostTwoDecimals_threeDecimals_false', () => {
    expect(hasAtMostTwoDecimals(19.99)).to.equal(true);
    expect(hasAtMostTwoDecimals(0.1 + 0.2)).to.equal(true);
    expect(hasAtMostTwoDecimals(19.999)).to.equal(false);
  });

  it('isCurrency_knownAndUnknown_onlyBrlUsdEur', () => {
    expect(['BRL', 'USD', 'EUR', 'GBP', 'brl', 1].map(isCurrency)).to.deep.equal([true, true, true, false, false, false]);
  });
});
