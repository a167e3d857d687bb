import { expect } from 'chai';
import {
  aabFileName,
  ESTIMATE_TEXTS,
  formatCountdown,
  formatDate,
  formatDuration,
  formatEstimate,
  formatRetryAfter,
  savings,
  shortId,
  toDate,
} from '../src/lib/format';

describe('format', () => {
  it('formatDuration_hoursMinutesSeconds_omitsZeroParts', () => {
    expect(formatDuration(3723000)).to.equal('1h 2m 3s');
    expect(formatDuration(125000)).to.equal('2m 5s');
    expect(formatDuration(120000)).to.equal('2m');
    expect(formatDuration(4000)).to.equal('4s');
    expect(formatDuration(999)).to.equal('menos de 1s');
    expect(formatDuration(0)).to.equal('menos de 1s');
    expect(formatDuration(null)).to.equal('—');
    expect(formatDuration(3600000)).to.equal('1h');
  });

  it('formatEstimate_specTexts_dueUnderOneMinuteOneAndMany', () => {
    expect(formatEstimate(0)).to.equal('A qualquer momento');
    expect(formatEstimate(-5)).to.equal('A qualquer momento');
    expect(formatEstimate(30000)).to.equal('Menos de 1 minuto');
    expect(formatEstimate(60000)).to.equal('1 minuto');
    expect(formatEstimate(89000)).to.equal('1 minuto');
    expect(formatEstimate(300000)).to.equal('5 minutos');
  });

  it('formatEstimate_noEstimate_usesTheSpecFallbacks', () => {
    expect(formatEstimate(undefined)).to.equal('2-5 min');
    expect(formatEstimate(null, ESTIMATE_TEXTS.processingFallback)).to.equal('~2-3 min');
  });

  it('formatRetryAfter_secondsAndMinutes_inWords', () => {
    expect(formatRetryAfter(1)).to.equal('1 segundo');
    expect(formatRetryAfter(30)).to.equal('30 segundos');
    expect(formatRetryAfter(60)).to.equal('1 minuto');
    expect(formatRetryAfter(150)).to.equal('3 minutos');
  });

  it('formatCountdown_msLeft_mmss', () => {
    expect(formatCountdown(30 * 60000)).to.equal('30:00');
    expect(formatCountdown(61000)).to.equal('01:01');
    expect(formatCountdown(500)).to.equal('00:01');
    expect(formatCountdown(-1000)).to.equal('00:00');
  });

  it('toDate_isoTextEpochOrInvalid_parsed', () => {
    expect(toDate('2025-01-02T03:04:05.000Z')?.toISOString()).to.equal('2025-01-02T03:04:05.000Z');
    expect(toDate(0)?.getTime()).to.equal(0);
    expect(toDate('nope')).to.equal(undefined);
    expect(formatDate(null)).to.equal('—');
    expect(formatDate('2025-12-31T12:00:00')).to.equal('31/12/2025');
  });

  it('shortId_andAabFileName_asTheCardsShowThem', () => {
    expect(shortId('123e4567-e89b-12d3-a456-426614174000')).to.equal('14174000');
    expect(aabFileName('App.APK')).to.equal('App.aab');
    expect(aabFileName(undefined)).to.equal('converted.aab');
  });

  it('savings_smallerFinalFile_bytesAndPercent', () => {
    expect(savings(1000, 750)).to.deep.equal({ bytes: 250, percent: 25 });
    expect(savings(1000, 1000)).to.equal(undefined);
    expect(savings(1000, 1200)).to.equal(undefined);
    expect(savings(3, 2)).to.deep.equal({ bytes: 1, percent: 33.3 });
  });
});
