import { expect } from 'chai';
import { conversionStepLabel, conversionStepTag } from '../src/conversions.js';

describe('conversion stages in pt-BR', () => {
  it('stepLabel_saysWhatEachKindReadsAndWrites', () => {
    expect(['reading', 'writing', 'storing'].map((s) => conversionStepLabel(s, 'apk-to-aab'))).to.deep.equal(['Lendo o APK', 'Gravando o AAB', 'Armazenando o AAB']);
    expect(['reading', 'writing', 'storing'].map((s) => conversionStepLabel(s, 'aab-to-apks'))).to.deep.equal(['Lendo o AAB', 'Gravando os APKs', 'Armazenando os APKs']);
    // Stages that read the same for both kinds, a row without a kind, and one this version does not know.
    expect(conversionStepLabel('validating', 'aab-to-apks')).to.equal('Validando o bundle');
    expect(conversionStepLabel('writing')).to.equal('Gravando o AAB');
    expect(conversionStepLabel('etapa-nova', 'aab-to-apks')).to.equal('etapa-nova');
    expect(conversionStepTag('writing')).to.equal('gravação');
  });
});
