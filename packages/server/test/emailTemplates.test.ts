/**
 * The "conversion finished" e-mail names what the conversion made: the AAB of an APK, the APK of
 * a bundle, or a device's set of APKs — and old messages, queued before conversions had kinds,
 * still read as an AAB.
 */
import { expect } from 'chai';
import { messageContent } from '../src/mail/templates.js';

describe('e-mail: a finished conversion says what it made', () => {
  const finished = (extra: Record<string, unknown>) => {
    const m = messageContent('conversion_finished', { fileName: 'Meu App.aab', conversionId: 'c1', durationSeconds: 95, ...extra });
    const paragraph = m.blocks.find((b): b is { p: string } => 'p' in b)?.p ?? '';
    return { heading: m.heading, paragraph };
  };

  it('conversionFinished_eachKindAndOutput_namedInHeadingAndText', () => {
    expect(finished({ kind: 'apk-to-aab' })).to.deep.include({ heading: 'Seu AAB está pronto' });
    expect(finished({})).to.deep.include({ heading: 'Seu AAB está pronto' });
    expect(finished({ kind: 'aab-to-apks', output: 'universal' })).to.deep.include({ heading: 'Seu APK está pronto' });
    const set = finished({ kind: 'aab-to-apks', output: 'device-set' });
    expect(set.heading).to.equal('Seu conjunto de APKs está pronto');
    expect(set.paragraph).to.equal('A conversão de Meu App.aab terminou em 2 minutos. O conjunto de APKs está pronto para baixar.');
  });
});
