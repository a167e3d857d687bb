import { expect } from 'chai';
import { greeting, displayName } from '../src/lib/userName';

describe('user names', () => {
  it('greeting_nameOrEmail_neutral', () => {
    expect(greeting({ name: 'Ana', email: 'a@x.com' })).to.equal('Boas-vindas, Ana!');
    expect(greeting({ name: '  ', email: 'a@x.com' })).to.equal('Boas-vindas, a@x.com!');
    expect(displayName({ email: 'b@x.com' })).to.equal('b@x.com');
  });
});
