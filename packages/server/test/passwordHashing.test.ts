/**
 * Password hashing under a burst: many sign-ups at once each get a correct hash, but no more
 * derivations run together than the bound (each takes 64 MiB at the production cost and a
 * libuv pool thread that file work needs too).
 */
import { expect } from 'chai';
import { DERIVATIONS_AT_ONCE, hashPassword, passwordKdfPeak, verifyPassword } from '../src/accounts/password.js';
import { TEST_PASSWORD_PARAMS } from './helpers/server.js';

describe('password hashing under a burst', function () {
  this.timeout(60_000);

  it('hashPassword_twelveAtOnce_eachVerifies_andTheBoundRunTogether_neverMore', async () => {
    const passwords = Array.from({ length: 12 }, (_, i) => `senha-da-rajada-${i}`);
    // The gate does not depend on the cost: the tests' low cost keeps this fast.
    const hashes = await Promise.all(passwords.map((p) => hashPassword(p, TEST_PASSWORD_PARAMS)));
    expect(passwordKdfPeak(), 'derivations at once').to.equal(DERIVATIONS_AT_ONCE);
    expect(new Set(hashes).size).to.equal(12);
    const right = await Promise.all(hashes.map((hash, i) => verifyPassword(passwords[i]!, hash)));
    const wrong = await Promise.all(hashes.map((hash, i) => verifyPassword(`${passwords[i]!}x`, hash)));
    expect(right).to.deep.equal(hashes.map(() => true));
    expect(wrong).to.deep.equal(hashes.map(() => false));
    expect(passwordKdfPeak(), 'derivations at once').to.equal(DERIVATIONS_AT_ONCE);
  });
});
