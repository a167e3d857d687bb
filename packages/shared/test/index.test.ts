import { expect } from 'chai';
import { VERSION } from '../src/index.js';

describe('shared', () => {
  it('version_exported_isSemver', () => {
    expect(VERSION).to.match(/^\d+\.\d+\.\d+$/);
  });
});
