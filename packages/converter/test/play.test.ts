/**
 * Publishing to Google Play (src/play/) against the stand-in of Google's token endpoint and
 * Android Publisher API (test/helpers/googlePlayStandIn.ts) over real HTTP on loopback.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { PLAY_ERROR_MESSAGES, type PlayErrorCode } from '@aabify/shared';
import {
  PlayError,
  parseServiceAccountKey,
  publishBundle,
  testEditAccess,
  tokenUrlFor,
  UPLOAD_CHUNK_UNIT,
  type PublishInput,
  type ServiceAccountKey,
} from '../src/play/index.js';
import { GooglePlayStandIn, STAND_IN_ERRORS, makeServiceAccount, type TestServiceAccount } from './helpers/googlePlayStandIn.js';
import { randomish } from './helpers/zipBuilder.js';

const PKG = 'com.example.tiny';

describe('play: publishing to Google Play over the documented REST protocol', function () {
  this.timeout(30_000);
  let google: GooglePlayStandIn;
  let account: TestServiceAccount;
  let key: ServiceAccountKey;
  // Larger than two 256 KiB chunks, so the upload takes three PUTs.
  const aab = randomish(2 * UPLOAD_CHUNK_UNIT + 12_345, 7);
  const sha256 = createHash('sha256').update(aab).digest('hex');

  before(async () => {
    google = await new GooglePlayStandIn().start();
    account = makeServiceAccount();
    key = parseServiceAccountKey(account.json);
  });
  after(() => google.stop());
  beforeEach(() => {
    google.reset();
    google.addServiceAccount(account);
    google.addApp(PKG);
    google.expectBundle(aab, { versionCode: 7, packageName: PKG });
  });

  const input = (over: Partial<PublishInput> = {}): PublishInput => ({
    key,
    packageName: PKG,
    bundle: { size: aab.length, open: () => Readable.from([aab.subarray(0, 100_000), aab.subarray(100_000)]) },
    release: { track: 'internal', status: 'draft' },
    endpoints: { tokenUrl: google.tokenUrl, apiUrl: google.url },
    chunkBytes: UPLOAD_CHUNK_UNIT,
    ...over,
  });

  async function failureOf(p: Promise<unknown>): Promise<PlayError> {
    try {
      await p;
    } catch (e) {
      expect(e).to.be.instanceOf(PlayError);
      return e as PlayError;
    }
    throw new Error('expected a PlayError');
  }

  it('publish_draftToInternal_uploadsInChunksAndCommitsTheRelease', async () => {
    const progress: number[] = [];
    const logs: string[] = [];
    const result = await publishBundle(
      input({
        release: { track: 'internal', status: 'draft', name: '1.0 (7)', notes: [{ language: 'pt-BR', text: 'Primeira versão' }] },
        onProgress: (_s, p) => progress.push(p),
        onLog: (_l, m) => logs.push(m),
      }),
    );
    expect(result).to.include({ versionCode: 7, track: 'internal', releaseStatus: 'draft', packageName: PKG });
    expect(result.bundle.sha256).to.equal(sha256);
    expect(google.uploads).to.deep.equal([{ editId: result.editId, sha256, size: aab.length, chunks: 3 }]);
    const puts = google.calls.filter((c) => c.method === 'PUT' && c.contentRange);
    expect(puts.map((c) => c.contentRange)).to.deep.equal([
      `bytes 0-${UPLOAD_CHUNK_UNIT - 1}/${aab.length}`,
      `bytes ${UPLOAD_CHUNK_UNIT}-${2 * UPLOAD_CHUNK_UNIT - 1}/${aab.length}`,
      `bytes ${2 * UPLOAD_CHUNK_UNIT}-${aab.length - 1}/${aab.length}`,
    ]);
    expect(puts.map((c) => c.status)).to.deep.equal([308, 308, 200]);
    expect(google.commits).to.have.length(1);
    expect(google.commits[0]!.tracks.internal!.releases[0]).to.deep.equal({
      name: '1.0 (7)',
      versionCodes: ['7'],
      status: 'draft',
      releaseNotes: [{ language: 'pt-BR', text: 'Primeira versão' }],
    });
    expect(progress.at(-1)).to.equal(100);
    expect(progress).to.deep.equal([...progress].sort((a, b) => a - b));
    expect(logs.at(-1)).to.contain('versionCode 7');
    expect(google.openEdits).to.deep.equal([]);
  });

  it('publish_inProgressRollout_sendsUserFraction', async () => {
    await publishBundle(input({ release: { track: 'production', status: 'inProgress', rolloutPercent: 12.5 } }));
    expect(google.commits[0]!.tracks.production!.releases[0]).to.include({ status: 'inProgress', userFraction: 0.125 });
  });

  it('publish_sessionKeepsPartOfAChunk_resendsTheRestFromTheRangeIt308s', async () => {
    // Google persists whole 256 KiB units: of a 512 KiB chunk it may keep the first half.
    google.partialFirstChunk = UPLOAD_CHUNK_UNIT;
    await publishBundle(input({ chunkBytes: 2 * UPLOAD_CHUNK_UNIT }));
    expect(google.uploads[0]!.sha256).to.equal(sha256);
    const ranges = google.calls.filter((c) => c.contentRange).map((c) => c.contentRange);
    expect(ranges.slice(0, 2)).to.deep.equal([`bytes 0-${2 * UPLOAD_CHUNK_UNIT - 1}/${aab.length}`, `bytes ${UPLOAD_CHUNK_UNIT}-${2 * UPLOAD_CHUNK_UNIT - 1}/${aab.length}`]);
  });

  it('publish_chunkAnswers503_asksTheSessionWhereItStandsAndGoesOn', async () => {
    google.failNext('chunk', STAND_IN_ERRORS.unavailable());
    const result = await publishBundle(input());
    expect(result.versionCode).to.equal(7);
    expect(google.calls.some((c) => c.contentRange === `bytes */${aab.length}` && c.status === 308)).to.equal(true);
    expect(google.uploads[0]!.sha256).to.equal(sha256);
  });

  const cases: Array<[string, PlayErrorCode, () => void, Partial<PublishInput>?]> = [
    ['app unknown to Play Console', 'PLAY_APP_NOT_FOUND', () => google.apps.delete(PKG)],
    ['service account not invited', 'PLAY_PERMISSION_DENIED', () => (google.apps.get(PKG)!.grantedTo = [])],
    ['versionCode already committed', 'PLAY_VERSION_CODE_USED', () => google.apps.get(PKG)!.usedVersionCodes.push(7)],
    ['bundle of another package', 'PLAY_PACKAGE_MISMATCH', () => google.expectBundle(aab, { versionCode: 7, packageName: 'com.other.app' })],
    ['bundle not signed with the upload key', 'PLAY_UPLOAD_KEY_MISMATCH', () => (google.apps.get(PKG)!.uploadKeySha256 = 'AB'.repeat(32))],
    ['custom track missing', 'PLAY_TRACK_NOT_FOUND', () => undefined, { release: { track: 'qa-fechado', status: 'draft' } }],
    ['draft app, completed release', 'PLAY_DRAFT_APP_ONLY', () => (google.apps.get(PKG)!.draft = true), { release: { track: 'internal', status: 'completed' } }],
    ['daily quota', 'PLAY_QUOTA_EXCEEDED', () => google.failNext('track', STAND_IN_ERRORS.quota())],
    ['Google down', 'PLAY_UNAVAILABLE', () => google.failNext('commit', STAND_IN_ERRORS.internal())],
    ['uploaded bytes are not the AAB', 'PLAY_REJECTED', () => undefined, { bundle: { size: 300_000, open: () => Readable.from([randomish(300_000, 99)]) } }],
  ];
  for (const [what, code, arrange, over] of cases) {
    it(`publish_${code}_${what.replace(/\W+/g, '_')}_mapsToItsMessageAndDeletesTheEdit`, async () => {
      arrange();
      const logs: string[] = [];
      const e = await failureOf(publishBundle(input({ ...over, onLog: (_l, m) => logs.push(m) })));
      expect(e.code).to.equal(code);
      expect(e.message).to.equal(PLAY_ERROR_MESSAGES[code]);
      expect(e.detail, 'Google\'s own words are kept').to.match(/^HTTP \d{3}/);
      expect(logs.some((l) => l.startsWith('Google Play: HTTP'))).to.equal(true);
      expect(google.commits).to.have.length(0);
      expect(google.openEdits, 'no edit left open').to.deep.equal([]);
      if (code !== 'PLAY_APP_NOT_FOUND' && code !== 'PLAY_PERMISSION_DENIED') expect(google.deletedEdits).to.have.length(1);
    });
  }

  it('token_assertionSignedByAnotherKey_isRefusedAsAuthFailure', async () => {
    const impostor = makeServiceAccount();
    google.reset();
    google.addServiceAccount({ clientEmail: impostor.clientEmail, publicKey: account.publicKey });
    const e = await failureOf(testEditAccess(parseServiceAccountKey(impostor.json), PKG, { tokenUrl: google.tokenUrl, apiUrl: google.url }));
    expect(e.code).to.equal('PLAY_AUTH_FAILED');
    expect(e.detail).to.contain('Invalid JWT Signature');
  });

  it('testEditAccess_grantedAccount_opensAndDeletesOneEditOnly', async () => {
    const r = await testEditAccess(key, PKG, { tokenUrl: google.tokenUrl, apiUrl: google.url });
    expect(google.deletedEdits).to.deep.equal([r.editId]);
    expect(google.calls.map((c) => `${c.method} ${c.status}`)).to.deep.equal(['POST 200', 'POST 200', 'DELETE 204']);
  });

  it('parseServiceAccountKey_notAServiceAccountKey_isPlayKeyInvalid', () => {
    const bad = ['{}', 'not json', JSON.stringify({ type: 'authorized_user', client_email: 'a@b', private_key: 'x' }), JSON.stringify({ type: 'service_account', client_email: 'a@b.c', private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' })];
    for (const text of bad) expect(() => parseServiceAccountKey(text), text).to.throw(PlayError).with.property('code', 'PLAY_KEY_INVALID');
  });

  it('tokenUrlFor_keyNamingAnotherHost_usesGooglesEndpointInstead', () => {
    const other = { ...key, tokenUri: 'http://169.254.169.254/latest' };
    expect(tokenUrlFor(other, {})).to.equal('https://oauth2.googleapis.com/token');
    expect(tokenUrlFor({ ...key, tokenUri: 'https://oauth2.googleapis.com/token' }, {})).to.equal('https://oauth2.googleapis.com/token');
    expect(tokenUrlFor(other, { tokenUrl: google.tokenUrl })).to.equal(google.tokenUrl);
  });
});
