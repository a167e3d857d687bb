import { expect } from 'chai';
import { readModules } from '../src/pages/converter/BundleModules';

describe('result card: bundle modules', () => {
  const base = { name: 'base', kind: 'base', files: 12, sizeBytes: 2048 };
  const pack = { name: 'media', kind: 'asset-pack', delivery: 'install-time', files: 20, sizeBytes: 314_572_800 };

  it('readModules_statusAnswerWithReport_returnsTheModules', () => {
    expect(readModules({ id: 'x', report: { modules: [base, pack] } })).to.deep.equal([base, pack]);
    expect(readModules({ conversion: { report: { modules: [base] } } })).to.deep.equal([base]);
  });

  it('readModules_noReportOrBadEntries_empty', () => {
    expect(readModules(undefined)).to.deep.equal([]);
    expect(readModules({ report: {} })).to.deep.equal([]);
    expect(readModules({ report: { modules: [{ name: 'x' }, 'y'] } })).to.deep.equal([]);
  });
});
