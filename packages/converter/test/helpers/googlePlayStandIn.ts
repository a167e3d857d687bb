/**
 * A stand-in for Google's OAuth 2.0 token endpoint and the Android Publisher API v3, on
 * loopback, speaking their documented REST protocol (so the code under test cannot tell it
 * from Google): the JWT-bearer grant (RS256 assertion checked against the service account's
 * public key, aud = this token URL, the androidpublisher scope, at most an hour), edits.insert,
 * edits.delete, edits.bundles.list and edits.apks.list, edits.bundles.upload by the resumable protocol (POST with
 * X-Upload-Content-Type/-Length → Location; PUTs with Content-Range in multiples of 256 KiB;
 * 308 + Range until the last byte; a `bytes * /N` status query), edits.tracks.update and
 * edits.commit; errors in Google's JSON error shape.
 *
 * Like Play, it refuses what is wrong on its own — an app it does not know (404), a service
 * account not invited to the app (403), a versionCode already committed, a bundle of another
 * package or not signed with the app's upload key, a track the app lacks, a non-draft release on
 * a draft app — and can be told to fail once in any call (quota, 5xx). A bundle is known by the
 * SHA-256 of its bytes (`expectBundle`): uploaded bytes that are not the expected AAB are refused.
 *
 * Used by the converter's, the server's and the CLI's tests (the CLI's start it in the test
 * process and point the spawned server or CLI at it with GOOGLE_OAUTH_TOKEN_URL and
 * GOOGLE_PLAY_API_URL).
 */
import { createHash, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
const CHUNK_UNIT = 256 * 1024;

export interface TestServiceAccount {
  clientEmail: string;
  projectId: string;
  privateKeyId: string;
  /** The key file's text, as Google Cloud hands it out. */
  json: string;
  publicKey: KeyObject;
}

/** A fresh RSA service-account key (2048 bits) in Google's key-file format. */
export function makeServiceAccount(name = 'publisher', projectId = 'aabify-testes'): TestServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = `${name}@${projectId}.iam.gserviceaccount.com`;
  const privateKeyId = randomBytes(20).toString('hex');
  const json = JSON.stringify(
    {
      type: 'service_account',
      project_id: projectId,
      private_key_id: privateKeyId,
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      client_id: '1234567890',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: 'https://oauth2.googleapis.com/token',
      auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
      universe_domain: 'googleapis.com',
    },
    null,
    2,
  );
  return { clientEmail, projectId, privateKeyId, json, publicKey };
}

export interface StandInApp {
  packageName: string;
  /** Service-account e-mails invited to the app in Play Console. */
  grantedTo: string[];
  tracks: string[];
  usedVersionCodes: number[];
  /** versionCodes of APKs uploaded before the app moved to bundles (edits.apks.list). */
  apksVersionCodes?: number[];
  /** A draft app accepts only draft releases. */
  draft: boolean;
  /** SHA-256 of the app's upload certificate (bundles signed otherwise are refused). */
  uploadKeySha256?: string;
}

export interface ExpectedBundle {
  sha256: string;
  versionCode: number;
  packageName: string;
  /** SHA-256 of the certificate that signed it (none: unsigned). */
  signedWith?: string;
}

export interface StandInCall {
  method: string;
  path: string;
  status: number;
  /** Bytes of a chunk PUT. */
  bytes?: number;
  contentRange?: string;
}

interface Edit {
  id: string;
  packageName: string;
  email: string;
  bundles: ExpectedBundle[];
  tracks: Record<string, unknown>;
}

interface UploadSession {
  editId: string;
  size: number;
  parts: Buffer[];
  received: number;
  done?: ExpectedBundle;
}

export interface Commit {
  packageName: string;
  editId: string;
  tracks: Record<string, { track: string; releases: Array<Record<string, unknown>> }>;
  versionCodes: number[];
}

type Stage = 'token' | 'edit' | 'upload' | 'chunk' | 'track' | 'commit' | 'delete';

interface Injected {
  status: number;
  body: unknown;
}

function googleError(code: number, status: string, message: string, reason: string): unknown {
  return { error: { code, message, status, errors: [{ message, domain: 'global', reason }] } };
}

export const STAND_IN_ERRORS = {
  quota: (): Injected => ({
    status: 429,
    body: googleError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for quota metric \'Queries\' and limit \'Queries per day\' of service \'androidpublisher.googleapis.com\'.', 'rateLimitExceeded'),
  }),
  unavailable: (): Injected => ({ status: 503, body: googleError(503, 'UNAVAILABLE', 'The service is currently unavailable.', 'backendError') }),
  internal: (): Injected => ({ status: 500, body: googleError(500, 'INTERNAL', 'Internal error encountered.', 'backendError') }),
};

const base64urlJson = (s: string): unknown => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));

export class GooglePlayStandIn {
  url = '';
  readonly apps = new Map<string, StandInApp>();
  readonly calls: StandInCall[] = [];
  readonly commits: Commit[] = [];
  readonly deletedEdits: string[] = [];
  /** Every finished upload: the SHA-256 of the bytes received. */
  readonly uploads: Array<{ editId: string; sha256: string; size: number; chunks: number }> = [];
  /** Bytes the first chunk PUT of each session acknowledges (the rest is asked again with 308). */
  partialFirstChunk?: number;
  /**
   * What Play reads in a bundle not announced with expectBundle (a test that cannot know the
   * AAB's bytes beforehand compares `uploads[].sha256` with the AAB afterwards); unset: refused.
   */
  anyBundle?: Omit<ExpectedBundle, 'sha256'>;
  private readonly accounts = new Map<string, KeyObject>();
  private readonly bundles = new Map<string, ExpectedBundle>();
  private readonly tokens = new Map<string, { email: string; expiresAt: number }>();
  private readonly edits = new Map<string, Edit>();
  private readonly sessions = new Map<string, UploadSession>();
  private readonly injected = new Map<Stage, Injected[]>();
  private server?: Server;

  get tokenUrl(): string {
    return `${this.url}/token`;
  }

  /** Environment of a server or CLI pointed at this stand-in. */
  get env(): Record<string, string> {
    return { GOOGLE_OAUTH_TOKEN_URL: this.tokenUrl, GOOGLE_PLAY_API_URL: this.url };
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) this.json(req, res, 500, googleError(500, 'INTERNAL', String(err), 'backendError'));
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }

  /** A service account Google knows (its public key verifies the assertions). */
  addServiceAccount(account: { clientEmail: string; publicKey: KeyObject }): void {
    this.accounts.set(account.clientEmail, account.publicKey);
  }

  /** An app in Play Console; by default the given accounts are invited and it is published (not draft). */
  addApp(packageName: string, app: Partial<Omit<StandInApp, 'packageName'>> = {}): StandInApp {
    const full: StandInApp = {
      packageName,
      grantedTo: app.grantedTo ?? [...this.accounts.keys()],
      tracks: app.tracks ?? ['internal', 'alpha', 'beta', 'production'],
      usedVersionCodes: app.usedVersionCodes ?? [],
      ...(app.apksVersionCodes ? { apksVersionCodes: app.apksVersionCodes } : {}),
      draft: app.draft ?? false,
      ...(app.uploadKeySha256 ? { uploadKeySha256: app.uploadKeySha256 } : {}),
    };
    this.apps.set(packageName, full);
    return full;
  }

  /** The AAB an upload must carry (known by the SHA-256 of its bytes) and what Play reads in it. */
  expectBundle(bytes: Uint8Array | string, facts: Omit<ExpectedBundle, 'sha256'>): ExpectedBundle {
    const sha256 = typeof bytes === 'string' ? bytes : createHash('sha256').update(bytes).digest('hex');
    const bundle = { sha256, ...facts };
    this.bundles.set(sha256, bundle);
    return bundle;
  }

  /** The next call of this stage fails with `error` (once). */
  failNext(stage: Stage, error: Injected): void {
    const list = this.injected.get(stage) ?? [];
    list.push(error);
    this.injected.set(stage, list);
  }

  /** Edits opened and neither committed nor deleted. */
  get openEdits(): string[] {
    return [...this.edits.keys()];
  }

  /** Forgets everything: apps, bundles, service accounts and their tokens, calls, edits. */
  reset(): void {
    this.accounts.clear();
    this.tokens.clear();
    this.apps.clear();
    this.bundles.clear();
    this.calls.length = 0;
    this.commits.length = 0;
    this.deletedEdits.length = 0;
    this.uploads.length = 0;
    this.edits.clear();
    this.sessions.clear();
    this.injected.clear();
    this.partialFirstChunk = undefined;
    this.anyBundle = undefined;
  }

  // ---- protocol ------------------------------------------------------------------------

  private json(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, extra: Partial<StandInCall> = {}): void {
    this.calls.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0]!, status, ...extra });
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { ...(text ? { 'content-type': 'application/json; charset=UTF-8' } : {}), 'content-length': String(Buffer.byteLength(text)), ...headers });
    res.end(text);
  }

  private async body(req: IncomingMessage): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const p of req) parts.push(p as Buffer);
    return Buffer.concat(parts);
  }

  private takeInjected(stage: Stage): Injected | undefined {
    const list = this.injected.get(stage);
    const first = list?.shift();
    if (list && list.length === 0) this.injected.delete(stage);
    return first;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const path = url.pathname;
    if (req.method === 'POST' && path === '/token') return this.token(req, res);

    const upload = /^\/upload\/androidpublisher\/v3\/applications\/([^/]+)\/edits\/([^/]+)\/bundles$/.exec(path);
    const api = /^\/androidpublisher\/v3\/applications\/([^/]+)\/edits(?:\/([^/:]+))?(:commit)?(?:\/tracks\/([^/]+)|\/(bundles|apks))?$/.exec(path);
    if (!upload && !api) return this.json(req, res, 404, googleError(404, 'NOT_FOUND', `Not found: ${path}`, 'notFound'));

    const email = this.caller(req);
    if (!email) return this.json(req, res, 401, googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token.', 'authError'));

    if (upload) {
      const [, pkg, editId] = upload.map((s) => (s ? decodeURIComponent(s) : s));
      if (url.searchParams.get('uploadType') !== 'resumable') return this.json(req, res, 400, googleError(400, 'INVALID_ARGUMENT', 'Only uploadType=resumable is served here.', 'badRequest'));
      const uploadId = url.searchParams.get('upload_id');
      if (req.method === 'POST' && !uploadId) return this.startUpload(req, res, pkg!, editId!, email);
      if (req.method === 'PUT' && uploadId) return this.chunk(req, res, uploadId);
      return this.json(req, res, 400, googleError(400, 'INVALID_ARGUMENT', 'Bad upload request.', 'badRequest'));
    }
    const [, pkgRaw, editRaw, commit, trackRaw, listed] = api!;
    const pkg = decodeURIComponent(pkgRaw!);
    const editId = editRaw ? decodeURIComponent(editRaw) : undefined;
    if (req.method === 'POST' && !editId) return this.insertEdit(req, res, pkg, email);
    const edit = editId ? this.edits.get(editId) : undefined;
    if (!edit || edit.packageName !== pkg) return this.json(req, res, 404, googleError(404, 'NOT_FOUND', `Edit ${editId ?? ''} not found or already closed.`, 'editNotFound'));
    if (req.method === 'DELETE' && !commit && !trackRaw && !listed) return this.deleteEdit(req, res, edit);
    if (req.method === 'POST' && commit) return this.commit(req, res, edit);
    if (req.method === 'PUT' && trackRaw) return this.updateTrack(req, res, edit, decodeURIComponent(trackRaw), await this.body(req));
    if (req.method === 'GET' && listed) return this.list(req, res, edit, listed as 'bundles' | 'apks');
    return this.json(req, res, 405, googleError(405, 'INVALID_ARGUMENT', 'Method not allowed.', 'badRequest'));
  }

  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams((await this.body(req)).toString('utf8'));
    const fail = (description: string) => this.json(req, res, 400, { error: 'invalid_grant', error_description: description });
    const injected = this.takeInjected('token');
    if (injected) return this.json(req, res, injected.status, injected.body);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return this.json(req, res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type.' });
    const parts = (form.get('assertion') ?? '').split('.');
    if (parts.length !== 3) return fail('Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.');
    let header: { alg?: string; typ?: string };
    let claims: { iss?: string; aud?: string; scope?: string; iat?: number; exp?: number };
    try {
      header = base64urlJson(parts[0]!) as typeof header;
      claims = base64urlJson(parts[1]!) as typeof claims;
    } catch {
      return fail('Invalid JWT: malformed.');
    }
    if (header.alg !== 'RS256') return fail('Invalid JWT: unsupported algorithm.');
    const key = claims.iss ? this.accounts.get(claims.iss) : undefined;
    if (!key) return fail('Invalid grant: account not found');
    const signedOk = verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), key, Buffer.from(parts[2]!, 'base64url'));
    if (!signedOk) return fail('Invalid JWT Signature.');
    const now = Math.floor(Date.now() / 1000);
    if (claims.aud !== this.tokenUrl) return fail(`Invalid JWT: audience ${claims.aud} is not ${this.tokenUrl}.`);
    if (!claims.scope?.split(' ').includes(SCOPE)) return this.json(req, res, 400, { error: 'invalid_scope', error_description: 'Invalid OAuth scope or ID token audience provided.' });
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number' || claims.exp - claims.iat > 3600 || claims.exp < now || claims.iat > now + 300) {
      return fail('Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.');
    }
    const token = `ya29.${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { email: claims.iss!, expiresAt: Date.now() + 3600_000 });
    this.json(req, res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
  }

  private caller(req: IncomingMessage): string | undefined {
    const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    const t = m ? this.tokens.get(m[1]!) : undefined;
    return t && t.expiresAt > Date.now() ? t.email : undefined;
  }

  private insertEdit(req: IncomingMessage, res: ServerResponse, pkg: string, email: string): void {
    const injected = this.takeInjected('edit');
    if (injected) return this.json(req, res, injected.status, injected.body);
    const app = this.apps.get(pkg);
    if (!app) return this.json(req, res, 404, googleError(404, 'NOT_FOUND', `Package not found: ${pkg}.`, 'applicationNotFound'));
    if (!app.grantedTo.includes(email)) return this.json(req, res, 403, googleError(403, 'PERMISSION_DENIED', 'The caller does not have permission', 'permissionDenied'));
    const id = randomBytes(10).toString('hex');
    this.edits.set(id, { id, packageName: pkg, email, bundles: [], tracks: {} });
    this.json(req, res, 200, { id, expiryTimeSeconds: String(Math.floor(Date.now() / 1000) + 3600) });
  }

  /**
   * edits.bundles.list / edits.apks.list: the app's versionCodes used before this edit (as
   * bundles; `apksVersionCodes` as APKs) and those uploaded in it. An empty list omits the field,
   * as Google does.
   */
  private list(req: IncomingMessage, res: ServerResponse, edit: Edit, kind: 'bundles' | 'apks'): void {
    const app = this.apps.get(edit.packageName)!;
    const codes = kind === 'bundles' ? [...app.usedVersionCodes, ...edit.bundles.map((b) => b.versionCode)] : (app.apksVersionCodes ?? []);
    const items = codes.map((versionCode) => ({ versionCode, ...(kind === 'bundles' ? { sha1: '', sha256: '' } : { binary: { sha1: '', sha256: '' } }) }));
    this.json(req, res, 200, { kind: `androidpublisher#${kind}ListResponse`, ...(items.length > 0 ? { [kind]: items } : {}) });
  }

  private deleteEdit(req: IncomingMessage, res: ServerResponse, edit: Edit): void {
    const injected = this.takeInjected('delete');
    if (injected) return this.json(req, res, injected.status, injected.body);
    this.edits.delete(edit.id);
    this.deletedEdits.push(edit.id);
    this.json(req, res, 204, undefined);
  }

  private async startUpload(req: IncomingMessage, res: ServerResponse, pkg: string, editId: string, email: string): Promise<void> {
    await this.body(req);
    const edit = this.edits.get(editId);
    if (!edit || edit.packageName !== pkg || edit.email !== email) return this.json(req, res, 404, googleError(404, 'NOT_FOUND', `Edit ${editId} not found.`, 'editNotFound'));
    const injected = this.takeInjected('upload');
    if (injected) return this.json(req, res, injected.status, injected.body);
    const size = Number(req.headers['x-upload-content-length']);
    if (req.headers['x-upload-content-type'] !== 'application/octet-stream' || !Number.isSafeInteger(size) || size <= 0) {
      return this.json(req, res, 400, googleError(400, 'INVALID_ARGUMENT', 'X-Upload-Content-Type application/octet-stream and X-Upload-Content-Length are required.', 'badRequest'));
    }
    const uploadId = randomBytes(16).toString('base64url');
    this.sessions.set(uploadId, { editId, size, parts: [], received: 0 });
    const location = `${this.url}/upload/androidpublisher/v3/applications/${encodeURIComponent(pkg)}/edits/${encodeURIComponent(editId)}/bundles?uploadType=resumable&upload_id=${uploadId}`;
    this.json(req, res, 200, undefined, { location });
  }

  private rangeHeader(s: UploadSession): Record<string, string> {
    return s.received > 0 ? { range: `bytes=0-${s.received - 1}` } : {};
  }

  private async chunk(req: IncomingMessage, res: ServerResponse, uploadId: string): Promise<void> {
    const data = await this.body(req);
    const s = this.sessions.get(uploadId);
    const contentRange = String(req.headers['content-range'] ?? '');
    const extra = { bytes: data.length, contentRange };
    if (!s) return this.json(req, res, 404, googleError(404, 'NOT_FOUND', 'Upload session not found.', 'notFound'), {}, extra);
    if (s.done) return this.json(req, res, 200, this.bundleAnswer(s.done), {}, extra);
    const query = /^bytes \*\/(\d+)$/.exec(contentRange);
    if (query) return this.json(req, res, 308, undefined, this.rangeHeader(s), extra);
    const injected = this.takeInjected('chunk');
    if (injected) return this.json(req, res, injected.status, injected.body, {}, extra);
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(contentRange);
    if (!m || Number(m[3]) !== s.size || Number(m[1]) !== s.received || Number(m[2]) - Number(m[1]) + 1 !== data.length) {
      return this.json(req, res, 400, googleError(400, 'INVALID_ARGUMENT', `Bad Content-Range "${contentRange}" at byte ${s.received}.`, 'badContent'), {}, extra);
    }
    const last = Number(m[2]) + 1 === s.size;
    if (!last && data.length % CHUNK_UNIT !== 0) {
      return this.json(req, res, 400, googleError(400, 'INVALID_ARGUMENT', 'Chunk size must be a multiple of 256 KiB.', 'badContent'), {}, extra);
    }
    let keep = data;
    if (this.partialFirstChunk !== undefined && s.received === 0 && !last) {
      keep = data.subarray(0, this.partialFirstChunk);
    }
    s.parts.push(keep);
    s.received += keep.length;
    if (s.received < s.size) return this.json(req, res, 308, undefined, this.rangeHeader(s), extra);
    return this.finishUpload(req, res, s, extra);
  }

  private finishUpload(req: IncomingMessage, res: ServerResponse, s: UploadSession, extra: Partial<StandInCall>): void {
    const bytes = Buffer.concat(s.parts);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    this.uploads.push({ editId: s.editId, sha256, size: bytes.length, chunks: s.parts.length });
    const edit = this.edits.get(s.editId);
    if (!edit) return this.json(req, res, 404, googleError(404, 'NOT_FOUND', 'Edit not found.', 'editNotFound'), {}, extra);
    const app = this.apps.get(edit.packageName)!;
    const bundle = this.bundles.get(sha256) ?? (this.anyBundle ? { sha256, ...this.anyBundle } : undefined);
    if (!bundle) return this.json(req, res, 400, googleError(400, 'INVALID_ARGUMENT', 'The Android App Bundle is invalid.', 'apkInvalidFile'), {}, extra);
    if (bundle.packageName !== app.packageName) {
      return this.json(req, res, 403, googleError(403, 'PERMISSION_DENIED', `Package name in the bundle (${bundle.packageName}) does not match the app's package name (${app.packageName}).`, 'apkIncompatiblePackageName'), {}, extra);
    }
    if (app.uploadKeySha256 && bundle.signedWith !== app.uploadKeySha256) {
      const message = bundle.signedWith
        ? `The Android App Bundle was signed with the wrong key. Found: SHA256: ${bundle.signedWith}, expected: SHA256: ${app.uploadKeySha256}.`
        : 'The Android App Bundle was not signed.';
      return this.json(req, res, 403, googleError(403, 'PERMISSION_DENIED', message, 'apkInvalidSignature'), {}, extra);
    }
    if (app.usedVersionCodes.includes(bundle.versionCode)) {
      return this.json(req, res, 403, googleError(403, 'PERMISSION_DENIED', `Version code ${bundle.versionCode} has already been used.`, 'apkUpgradeVersionConflict'), {}, extra);
    }
    s.done = bundle;
    edit.bundles.push(bundle);
    this.json(req, res, 200, this.bundleAnswer(bundle, bytes), {}, extra);
  }

  private bundleAnswer(b: ExpectedBundle, bytes?: Buffer): unknown {
    return { versionCode: b.versionCode, sha1: bytes ? createHash('sha1').update(bytes).digest('hex') : '', sha256: b.sha256 };
  }

  private updateTrack(req: IncomingMessage, res: ServerResponse, edit: Edit, track: string, raw: Buffer): void {
    const injected = this.takeInjected('track');
    if (injected) return this.json(req, res, injected.status, injected.body);
    const app = this.apps.get(edit.packageName)!;
    if (!app.tracks.includes(track)) return this.json(req, res, 404, googleError(404, 'NOT_FOUND', `Track not found: ${track}.`, 'notFound'));
    let body: { track?: string; releases?: Array<Record<string, unknown>> };
    try {
      body = JSON.parse(raw.toString('utf8')) as typeof body;
    } catch {
      return this.json(req, res, 400, googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.', 'parseError'));
    }
    const release = body.releases?.[0];
    const codes = Array.isArray(release?.versionCodes) ? (release.versionCodes as unknown[]) : [];
    const bad = (message: string) => this.json(req, res, 400, googleError(400, 'INVALID_ARGUMENT', message, 'badRequest'));
    if (body.track !== track || !release || codes.length === 0) return bad('Track body must name the track and hold one release with versionCodes.');
    if (codes.some((c) => typeof c !== 'string' || !edit.bundles.some((b) => String(b.versionCode) === c))) return bad('Release includes a version code not uploaded in this edit.');
    const status = release.status;
    if (status !== 'draft' && status !== 'completed' && status !== 'inProgress' && status !== 'halted') return bad(`Invalid release status: ${String(status)}.`);
    if (app.draft && status !== 'draft') return bad('Only releases with status draft may be created on draft app.');
    if ((status === 'inProgress') !== (typeof release.userFraction === 'number')) return bad('userFraction must be set exactly for inProgress releases.');
    if (typeof release.userFraction === 'number' && !(release.userFraction > 0 && release.userFraction < 1)) return bad('userFraction must be in (0, 1).');
    edit.tracks[track] = { track, releases: [release] };
    this.json(req, res, 200, { track, releases: [release] });
  }

  private commit(req: IncomingMessage, res: ServerResponse, edit: Edit): void {
    const injected = this.takeInjected('commit');
    if (injected) return this.json(req, res, injected.status, injected.body);
    const app = this.apps.get(edit.packageName)!;
    const codes = edit.bundles.map((b) => b.versionCode);
    app.usedVersionCodes.push(...codes);
    this.commits.push({ packageName: edit.packageName, editId: edit.id, tracks: edit.tracks as Commit['tracks'], versionCodes: codes });
    this.edits.delete(edit.id);
    this.json(req, res, 200, { id: edit.id, expiryTimeSeconds: String(Math.floor(Date.now() / 1000) + 3600) });
  }
}
