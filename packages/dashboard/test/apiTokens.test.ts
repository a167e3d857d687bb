import { expect } from 'chai';
import { ACCOUNT_MESSAGES, createApiTokenSchema, type ApiTokenJson, type CreatedApiTokenResponse } from '@aabify/shared';
import { API_TOKEN_NEVER_USED, apiTokenLastUsed, apiTokenPrefixLabel, apiTokenRefusal, withCreatedToken, withoutToken } from '../src/lib/apiTokens';

const created: CreatedApiTokenResponse = {
  id: 'b',
  name: 'GitHub Actions',
  prefix: 'aab_AbCdEf12',
  scopes: ['read', 'conversions'],
  createdAt: '2025-03-01T12:00:00.000Z',
  lastUsedAt: null,
  token: 'aab_AbCdEf12-o-resto-do-segredo',
  message: ACCOUNT_MESSAGES.apiTokenCreated,
};
const older: ApiTokenJson = { id: 'a', name: 'aabify CLI (notebook)', prefix: 'aab_Zz99yy88', scopes: ['read'], createdAt: '2025-02-01T12:00:00.000Z', lastUsedAt: '2025-02-02T15:30:00.000Z' };

describe('API tokens (/account/api-tokens)', () => {
  it('apiTokenPrefixLabel_prefix_endsWithAnEllipsis', () => {
    expect(apiTokenPrefixLabel('aab_AbCdEf12')).to.equal('aab_AbCdEf12…');
  });

  it('apiTokenLastUsed_nullOrDate_nuncaUsadoOrDateTime', () => {
    expect(API_TOKEN_NEVER_USED).to.equal('nunca usado');
    expect(apiTokenLastUsed(null)).to.equal('nunca usado');
    expect(apiTokenLastUsed(older.lastUsedAt)).to.match(/^02\/02\/2025/);
  });

  it('withCreatedToken_createdAnswer_listedFirstWithoutTheSecretOrMessage', () => {
    const list = withCreatedToken([older], created);
    expect(list.map((t) => t.id)).to.deep.equal(['b', 'a']);
    expect(list[0]).to.deep.equal({ id: 'b', name: 'GitHub Actions', prefix: 'aab_AbCdEf12', scopes: ['read', 'conversions'], createdAt: created.createdAt, lastUsedAt: null });
    expect(JSON.stringify(list)).to.not.contain(created.token);
  });

  it('withoutToken_revokedId_leftOut', () => {
    expect(withoutToken([created, older], 'b').map((t) => t.id)).to.deep.equal(['a']);
    expect(withoutToken([older], 'x')).to.deep.equal([older]);
  });

  it('apiTokenRefusal_limitAndUnconfirmedEmail_theServersMessage', () => {
    expect(apiTokenRefusal({ status: 409, code: 'API_TOKEN_LIMIT', message: ACCOUNT_MESSAGES.apiTokenLimit })).to.deep.equal({
      message: ACCOUNT_MESSAGES.apiTokenLimit,
      resendVerification: false,
    });
    expect(apiTokenRefusal({ status: 403, code: 'EMAIL_NOT_VERIFIED', message: ACCOUNT_MESSAGES.apiTokenNeedsVerifiedEmail, details: { resend: '/api/auth/resend-verification' } })).to.deep.equal({
      message: ACCOUNT_MESSAGES.apiTokenNeedsVerifiedEmail,
      resendVerification: true,
    });
    // Without a message in the answer, the shared text of the same refusal.
    expect(apiTokenRefusal({ status: 409, code: 'API_TOKEN_LIMIT' })?.message).to.equal(ACCOUNT_MESSAGES.apiTokenLimit);
    expect(apiTokenRefusal({ status: 403, code: 'EMAIL_NOT_VERIFIED' })?.message).to.equal(ACCOUNT_MESSAGES.apiTokenNeedsVerifiedEmail);
  });

  it('apiTokenRefusal_otherFailures_null', () => {
    expect(apiTokenRefusal({ status: 400, code: 'VALIDATION_ERROR', fields: { name: ACCOUNT_MESSAGES.apiTokenNameRequired } })).to.equal(null);
    expect(apiTokenRefusal({ status: 0 })).to.equal(null);
    expect(apiTokenRefusal({ status: 500 })).to.equal(null);
  });

  it('createApiTokenSchema_theFormsRules_ptBrMessages', async () => {
    const errorOf = (name: string) => createApiTokenSchema.validate({ name }).then(() => null, (e: Error) => e.message);
    expect(await errorOf('   ')).to.equal(ACCOUNT_MESSAGES.apiTokenNameRequired);
    expect(await errorOf('x'.repeat(101))).to.equal(ACCOUNT_MESSAGES.apiTokenNameTooLong);
    expect(await errorOf('GitHub Actions')).to.equal(null);
  });
});
