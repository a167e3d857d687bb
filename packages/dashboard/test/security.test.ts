import { expect } from 'chai';
import type { SessionJson } from '@aabify/shared';
import { recoveryCodesFile, scopeNames, sessionLastUse, sessionsInOrder } from '../src/lib/security';

const session = (id: string, lastUsedAt: string | null, current = false): SessionJson => ({
  id,
  device: 'Chrome no Windows',
  userAgent: null,
  address: '203.0.113.7',
  createdAt: '2025-03-01T12:00:00.000Z',
  lastUsedAt,
  expiresAt: '2025-03-08T12:00:00.000Z',
  current,
});

describe('Conta › Segurança (lib/security)', () => {
  it('sessionsInOrder_currentFirstThenMostRecentlyUsed', () => {
    const list = [session('a', '2025-03-02T10:00:00.000Z'), session('b', null, true), session('c', '2025-03-03T10:00:00.000Z'), session('d', null)];
    expect(sessionsInOrder(list).map((s) => s.id)).to.deep.equal(['b', 'c', 'a', 'd']);
  });

  it('sessionLastUse_neverUsedIsADash', () => {
    expect(sessionLastUse({ lastUsedAt: null })).to.equal('—');
    expect(sessionLastUse({ lastUsedAt: '2025-03-02T15:30:00.000Z' })).to.match(/^02\/03\/2025/);
  });

  it('recoveryCodesFile_oneCodePerLineWithTheAccount', () => {
    const file = recoveryCodesFile('ana@example.com', ['aaaa-bbbb-cccc-dddd', 'eeee-ffff-gggg-hhhh']);
    expect(file.split('\n')).to.include.members(['aaaa-bbbb-cccc-dddd', 'eeee-ffff-gggg-hhhh']);
    expect(file).to.contain('ana@example.com');
  });

  it('scopeNames_theScopesInPortuguese', () => {
    expect(scopeNames(['read', 'publishing'])).to.equal('Leitura, Publicação');
  });
});
