import { expect } from 'chai';
import { givenName, greeting } from '../src/lib/userName';

describe('user names', () => {
  it('greeting_emailAlways_nameBesideIt_neutral', () => {
    expect(greeting({ name: 'Ana', email: 'a@x.com' })).to.equal('Boas-vindas, Ana (a@x.com)!');
    expect(greeting({ name: '  ', email: 'a@x.com' })).to.equal('Boas-vindas, a@x.com!');
    expect(greeting({ email: 'b@x.com' })).to.equal('Boas-vindas, b@x.com!');
  });

  it('givenName_blankIsNone', () => {
    expect(givenName({ name: ' Ana ' })).to.equal('Ana');
    expect(givenName({ name: '   ' })).to.equal(null);
    expect(givenName({})).to.equal(null);
  });
});
