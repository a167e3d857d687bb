import { expect } from 'chai';
import {
  MONEY_INPUT_MESSAGES,
  countOf,
  formatBytes,
  formatNumber,
  formatPercent,
  isDrasticChange,
  parseMoneyInput,
  plural,
  playTargetSdkRequirement,
  prePublicationChecklist,
  type ConversionReportJson,
} from '../src/index.js';

describe('pt-BR numbers', () => {
  it('formatBytes_eachUnit_usesPtBrDecimalsAndUnitNames', () => {
    expect(formatBytes(0)).to.equal('0 bytes');
    expect(formatBytes(undefined)).to.equal('0 bytes');
    expect(formatBytes(1)).to.equal('1 byte');
    expect(formatBytes(44)).to.equal('44 bytes');
    expect(formatBytes(512)).to.equal('512 bytes');
    expect(formatBytes(1536)).to.equal('1,5 KB');
    expect(formatBytes(1024 * 1024)).to.equal('1 MB');
    expect(formatBytes(1024 * 1024 - 1)).to.equal('1 MB');
    expect(formatBytes(1234567)).to.equal('1,18 MB');
    expect(formatBytes(1278851)).to.equal('1,22 MB');
    expect(formatBytes(100 * 1024 * 1024)).to.equal('100 MB');
    expect(formatBytes(3.256 * 1024 ** 3)).to.equal('3,26 GB');
    expect(formatBytes(1500 * 1024 ** 4)).to.equal('1.500 TB');
  });

  it('formatNumber_decimalsAndThousands_commaAndDot', () => {
    expect(formatNumber(43.46, { decimals: 1 })).to.equal('43,5');
    expect(formatNumber(0.866, { decimals: 2 })).to.equal('0,87');
    expect(formatNumber(1234567)).to.equal('1.234.567');
    expect(formatNumber(0.8, { decimals: 2, fixed: true })).to.equal('0,80');
    expect(formatNumber(3, { decimals: 2 })).to.equal('3');
    expect(formatNumber(-0.001, { decimals: 2 })).to.equal('0');
    expect(formatNumber(Number.NaN)).to.equal('—');
  });
  it('formatPercent_oneDecimal', () => {
    expect(formatPercent(43.46)).to.equal('43,5%');
    expect(formatPercent(100)).to.equal('100%');
  });
  it('plural_oneAndOthers_rightWord', () => {
    expect(countOf(1, 'aprovada', 'aprovadas')).to.equal('1 aprovada');
    expect(countOf(2, 'pendente', 'pendentes')).to.equal('2 pendentes');
    expect(countOf(0, 'conversão', 'conversões')).to.equal('0 conversões');
    expect(countOf(1500, 'conversão', 'conversões')).to.equal('1.500 conversões');
    expect(plural(1, 'mês', 'meses')).to.equal('mês');
  });
});

describe('money typed by a person', () => {
  const cents = (t: string) => {
    const r = parseMoneyInput(t);
    return r.ok ? r.cents : r.message;
  };
  it('parseMoneyInput_brazilianAndDotStyles_sameCents', () => {
    expect(cents('19,90')).to.equal(1990);
    expect(cents('19.90')).to.equal(1990);
    expect(cents('19,9')).to.equal(1990);
    expect(cents('R$ 1.234,56')).to.equal(123456);
    expect(cents('R$\u00a01.234,56')).to.equal(123456);
    expect(cents('1234.56')).to.equal(123456);
    expect(cents('1,234.56')).to.equal(123456);
    expect(cents('1.234')).to.equal(123400);
    expect(cents('20')).to.equal(2000);
    expect(cents('0,05')).to.equal(5);
  });
  it('parseMoneyInput_badText_codedMessages', () => {
    expect(cents('')).to.equal(MONEY_INPUT_MESSAGES.invalid);
    expect(cents('abc')).to.equal(MONEY_INPUT_MESSAGES.invalid);
    expect(cents('-5')).to.equal(MONEY_INPUT_MESSAGES.negative);
    expect(cents('19,999')).to.equal(MONEY_INPUT_MESSAGES.tooManyDecimals);
    expect(cents('1,2,3')).to.equal(MONEY_INPUT_MESSAGES.invalid);
  });
  it('isDrasticChange_moreThanTenTimesEitherWay', () => {
    expect(isDrasticChange(1990, 199000)).to.equal(true);
    expect(isDrasticChange(199000, 1990)).to.equal(true);
    expect(isDrasticChange(1990, 19900)).to.equal(false);
    expect(isDrasticChange(0, 5000)).to.equal(false);
  });
});

describe('pre-publication checklist', () => {
  const base: ConversionReportJson = {
    packageName: 'com.exemplo',
    versionCode: 7,
    versionName: '1.2',
    minSdk: 24,
    targetSdk: 36,
    debuggable: false,
    abis: [],
    locales: [],
    densities: [],
    dexCount: 1,
    entryCount: 10,
    sizeIn: 1000,
    sizeOut: 900,
    entries: { copiedRaw: 1, converted: 1, dropped: 0, generated: 0 },
    durations: {},
    warnings: [],
    signature: { alias: 'upload', signatureAlgorithm: 'SHA256withRSA', subject: 'CN=Eu', certificateSha256: 'ab', notAfter: '2050-01-01T00:00:00.000Z' },
  };
  const at = new Date('2026-11-24T12:00:00Z');
  const statusOf = (r: ConversionReportJson) => Object.fromEntries(prePublicationChecklist(r, at).map((c) => [c.code, c.status]));

  it('requirement_byDate_latestRowInForce', () => {
    expect(playTargetSdkRequirement(new Date('2025-09-01T00:00:00Z')).minTargetSdk).to.equal(35);
    expect(playTargetSdkRequirement(at).minTargetSdk).to.equal(36);
  });
  it('checklist_cleanSignedRelease_allOk', () => {
    expect(statusOf(base)).to.deep.equal({ debuggable: 'ok', signature: 'ok', targetSdk: 'ok', size: 'ok', versionCode: 'ok' });
  });
  it('checklist_problems_blockersFirstEachWithAnAction', () => {
    const checks = prePublicationChecklist(
      {
        ...base,
        debuggable: true,
        targetSdk: 33,
        signature: undefined,
        warnings: [
          { code: 'VERSION_CODE_MISSING', message: 'x' },
          { code: 'BASE_MODULE_TOO_LARGE', message: 'O módulo base tem 600 MB comprimidos, acima do limite.' },
        ],
      },
      at,
    );
    expect(checks.map((c) => `${c.code}:${c.status}`)).to.deep.equal(['debuggable:blocker', 'targetSdk:blocker', 'size:blocker', 'signature:warning', 'versionCode:warning']);
    for (const c of checks) expect(c.action, c.code).to.be.a('string').and.not.equal('');
    expect(checks[1]!.title).to.equal('targetSdk 33 está abaixo do mínimo do Google Play (36, Android 16)');
    expect(checks[2]!.title).to.equal('O módulo base tem 600 MB comprimidos, acima do limite.');
  });
  it('checklist_debugCertificate_blocker', () => {
    expect(statusOf({ ...base, warnings: [{ code: 'DEBUG_CERTIFICATE', message: 'x' }] }).signature).to.equal('blocker');
  });
});
