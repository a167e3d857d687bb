import { expect } from 'chai';
import { nextPixPoll, pixPollSchedule, planSyncDelay } from '../src/lib/pixPolling';

describe('PIX polling schedule', () => {
  it('pixPollSchedule_noServerHint_exactDelays', () => {
    expect(pixPollSchedule()).to.deep.equal([2000, 2000, 2000, 2000, 2000, 2400, 2880, 3000, 3000, 3000, 4500, 5000, 5000, 5000, 5000]);
  });

  it('pixPollSchedule_anyRun_atMost15Polls', () => {
    expect(pixPollSchedule(1000)).to.have.length(15);
  });

  it('nextPixPoll_earlyAttempts_useServerRecommendedInterval', () => {
    expect(nextPixPoll(1, 2000, { kind: 'ok', recommendedInterval: 1500 })).to.deep.equal({ next: 1500 });
    expect(nextPixPoll(4, 2000, { kind: 'ok', recommendedInterval: 2500 })).to.deep.equal({ next: 2500 });
  });

  it('nextPixPoll_afterAttempt5_grows1point2UpTo3s', () => {
    expect(nextPixPoll(5, 2000, { kind: 'ok' })).to.deep.equal({ next: 2400 });
    expect(nextPixPoll(7, 2880, { kind: 'ok' })).to.deep.equal({ next: 3000 });
  });

  it('nextPixPoll_afterAttempt10_grows1point5UpTo5s', () => {
    expect(nextPixPoll(10, 3000, { kind: 'ok' })).to.deep.equal({ next: 4500 });
    expect(nextPixPoll(11, 4500, { kind: 'ok' })).to.deep.equal({ next: 5000 });
  });

  it('nextPixPoll_afterError_grows1point5UpTo8s', () => {
    expect(nextPixPoll(1, 2000, { kind: 'error', status: 500 })).to.deep.equal({ next: 3000 });
    expect(nextPixPoll(2, 6000, { kind: 'error' })).to.deep.equal({ next: 8000 });
  });

  it('nextPixPoll_404_stops', () => {
    expect(nextPixPoll(1, 2000, { kind: 'error', status: 404 })).to.deep.equal({ stop: 'not_found' });
  });

  it('nextPixPoll_attempt15_stopsWithTimeout', () => {
    expect(nextPixPoll(15, 5000, { kind: 'ok' })).to.deep.equal({ stop: 'max_attempts' });
    expect(nextPixPoll(15, 5000, { kind: 'error', status: 500 })).to.deep.equal({ stop: 'max_attempts' });
  });

  it('planSyncDelay_attempt_oneSecondTimesAttempt', () => {
    expect([1, 2, 3].map(planSyncDelay)).to.deep.equal([1000, 2000, 3000]);
  });
});
