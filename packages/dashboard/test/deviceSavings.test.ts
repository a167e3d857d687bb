import { expect } from 'chai';
import { readDownloadSizes } from '../src/pages/converter/DeviceSavings';

describe('DeviceSavings', () => {
  const size = { deviceId: 'arm64-v8a_xxhdpi_pt-BR', label: 'Celular atual', compatible: true, bundleBytes: 900, apkBytes: 1000, savedBytes: 100, savedPercent: 10 };

  it('readDownloadSizes_statusAnswerWithReport_returnsTheSizes', () => {
    expect(readDownloadSizes({ id: 'x', report: { downloadSizes: [size] } })).to.deep.equal([size]);
    expect(readDownloadSizes({ conversion: { report: { downloadSizes: [size, { label: 1 }] } } })).to.deep.equal([size]);
  });

  it('readDownloadSizes_noReportOrGarbage_returnsEmpty', () => {
    expect(readDownloadSizes({ report: null })).to.deep.equal([]);
    expect(readDownloadSizes('x')).to.deep.equal([]);
    expect(readDownloadSizes({ report: { downloadSizes: 'no' } })).to.deep.equal([]);
  });
});
