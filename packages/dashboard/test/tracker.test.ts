import { expect } from 'chai';
import { trackerState } from '../src/lib/tracker';

describe('tracker', () => {
  it('trackerState_eachStatus_stepStates', () => {
    expect(Object.values(trackerState(undefined))).to.deep.equal(['pending', 'pending', 'pending', 'pending']);
    expect(Object.values(trackerState('uploading'))).to.deep.equal(['active', 'pending', 'pending', 'pending']);
    expect(Object.values(trackerState('queued', 2))).to.deep.equal(['completed', 'active', 'pending', 'pending']);
    expect(Object.values(trackerState('queued', 0))).to.deep.equal(['completed', 'completed', 'active', 'pending']);
    expect(Object.values(trackerState('processing'))).to.deep.equal(['completed', 'completed', 'active', 'pending']);
    expect(Object.values(trackerState('completed'))).to.deep.equal(['completed', 'completed', 'completed', 'completed']);
    expect(Object.values(trackerState('failed'))).to.deep.equal(['completed', 'completed', 'failed', 'pending']);
  });
});
