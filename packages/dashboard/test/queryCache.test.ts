import { expect } from 'chai';
import { createQueryCache } from '../src/lib/queryCache.js';

describe('admin query cache', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000;
  });

  it('read_withinFreshWindow_servedWithoutRequest_thenRefetchedAfter', async () => {
    const cache = createQueryCache<number>(30_000, now);
    let calls = 0;
    const fetch = async () => ++calls;
    expect(await cache.read('k', fetch)).to.equal(1);
    clock += 29_999;
    expect(await cache.read('k', fetch)).to.equal(1);
    clock += 1;
    expect(await cache.read('k', fetch)).to.equal(2);
    expect(calls).to.equal(2);
  });

  it('read_differentKeys_cachedSeparately', async () => {
    const cache = createQueryCache<string>(30_000, now);
    expect(await cache.read('a', async () => 'A')).to.equal('A');
    expect(await cache.read('b', async () => 'B')).to.equal('B');
    expect(await cache.read('a', async () => 'outro')).to.equal('A');
  });

  it('read_concurrent_oneRequest', async () => {
    const cache = createQueryCache<number>(30_000, now);
    let calls = 0;
    const fetch = () => new Promise<number>((resolve) => setTimeout(() => resolve(++calls), 5));
    const [a, b] = await Promise.all([cache.read('k', fetch), cache.read('k', fetch)]);
    expect([a, b, calls]).to.deep.equal([1, 1, 1]);
  });

  it('read_firstAttemptFails_retriedOnce', async () => {
    const cache = createQueryCache<string>(30_000, now);
    let calls = 0;
    const value = await cache.read('k', async () => {
      calls++;
      if (calls === 1) throw new Error('rede');
      return 'ok';
    });
    expect([value, calls]).to.deep.equal(['ok', 2]);
  });

  it('read_bothAttemptsFail_errorReachesTheCallerAndNothingCached', async () => {
    const cache = createQueryCache<string>(30_000, now);
    let calls = 0;
    const failing = async (): Promise<string> => {
      calls++;
      throw new Error(`falha ${calls}`);
    };
    let error: unknown;
    await cache.read('k', failing).catch((e: unknown) => (error = e));
    expect((error as Error).message).to.equal('falha 2');
    expect(await cache.read('k', async () => 'depois')).to.equal('depois');
  });

  it('invalidate_afterAChange_nextReadFetchesAgain_andAnOlderAnswerIsNotKept', async () => {
    const cache = createQueryCache<string>(30_000, now);
    await cache.read('k', async () => 'v1');
    cache.invalidate();
    expect(await cache.read('k', async () => 'v2')).to.equal('v2');

    let release!: (v: string) => void;
    const slow = cache.read('k2', () => new Promise<string>((r) => (release = r)));
    cache.invalidate();
    release('antigo');
    expect(await slow).to.equal('antigo');
    expect(await cache.read('k2', async () => 'novo')).to.equal('novo');
  });
});
