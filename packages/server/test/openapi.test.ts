/**
 * The API contract (openapi/document.ts): the document is valid OpenAPI 3.1; every route Express
 * serves under /api is documented and every documented route is served; and the answers of a
 * representative run of real HTTP calls — every resource, successes and errors — match the
 * schemas the document gives for their method, path and status.
 */
import { expect } from 'chai';
import SwaggerParser from '@apidevtools/swagger-parser';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { createApp } from '../src/http/app.js';
import { buildOpenApiDocument } from '../src/openapi/document.js';
import { api, startRecording, stopRecording, type JsonBody, type RecordedAnswer } from './helpers/http.js';
import { ContractChecker, documentedRoutes, servedRoutes } from './helpers/apiContract.js';
import { uploadBytes, waitForStatus } from './helpers/conversions.js';
import { startTestServer, type TestServer } from './helpers/server.js';

type Doc = Record<string, unknown>;

describe('the API contract (OpenAPI 3.1)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let doc: Doc;

  before(async () => {
    server = await startTestServer();
    doc = (await api(server).get<Doc>('/openapi.json')).body;
  });

  after(async () => {
    stopRecording();
    await server?.stop();
  });

  it('openApiJson_servedDocument_isValidOpenApi31', async () => {
    expect(doc.openapi).to.equal('3.1.0');
    expect((doc.info as Doc).version).to.equal(server.ctx.version);
    expect(doc).to.deep.equal(JSON.parse(JSON.stringify(buildOpenApiDocument(server.ctx.version))));
    // swagger-parser dereferences in place: it gets a copy.
    await SwaggerParser.validate(structuredClone(doc) as never);
    const schemes = (doc.components as { securitySchemes: Record<string, Doc> }).securitySchemes;
    expect(schemes.sessionJwt).to.include({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(schemes.apiToken).to.include({ type: 'http', scheme: 'bearer', bearerFormat: 'aab_…' });
  });

  it('openApi_requestSchemas_comeFromTheSharedYupSchemas', () => {
    const register = (doc.paths as Record<string, Record<string, Doc>>)['/api/auth/register'].post;
    const schema = ((register.requestBody as Doc).content as Record<string, { schema: Doc }>)['application/json'].schema;
    expect(schema.required).to.deep.equal(['email', 'password', 'acceptTerms']);
    expect((schema.properties as Record<string, Doc>).acceptTerms).to.include({ type: 'boolean' });
    expect((schema.properties as Record<string, Doc>).email).to.include({ type: 'string', format: 'email', maxLength: 254 });
    expect((schema.properties as Record<string, Doc>).password).to.include({ type: 'string', minLength: 6, maxLength: 128 });
    const history = (doc.paths as Record<string, Record<string, Doc>>)['/api/conversion/history'].get;
    expect(history.parameters).to.deep.include({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } });
  });

  it('routes_everyExpressRouteDocumented_everyDocumentedRouteServed', () => {
    const served = servedRoutes(createApp(server.ctx));
    const documented = documentedRoutes(doc);
    expect(served.length).to.be.greaterThan(50);
    const missing = served.filter((r) => !documented.includes(r));
    const extra = documented.filter((r) => !served.includes(r));
    expect(missing, `routes Express serves that the OpenAPI document lacks (add a route(...) line in packages/server/src/openapi/paths/):\n  ${missing.join('\n  ')}`).to.deep.equal([]);
    expect(extra, `routes the OpenAPI document lists that Express does not serve (remove them from packages/server/src/openapi/paths/):\n  ${extra.join('\n  ')}`).to.deep.equal([]);
  });

  it('contractChecker_answerOffTheDocument_isReported', () => {
    // The checker must be able to fail: an answer whose shape, status or type the document does not allow.
    const checker = new ContractChecker(doc);
    expect(checker.problems({ method: 'GET', path: '/api/auth/me', status: 200, contentType: 'application/json', body: { email: 42 } })).to.not.deep.equal([]);
    expect(checker.problems({ method: 'GET', path: '/api/auth/me', status: 418, contentType: 'application/json', body: {} })[0]).to.contain('status 418 is not documented');
    expect(checker.problems({ method: 'GET', path: '/api/auth/me', status: 401, contentType: 'application/json', body: { message: 'x', code: 'X', extra: 1 } })).to.have.length.greaterThan(0);
    expect(checker.problems({ method: 'GET', path: '/api/nada/aqui', status: 200, contentType: 'application/json', body: {} })[0]).to.contain('no documented operation');
  });

  it('recordedAnswers_representativeRun_matchTheirSchemas', async () => {
    const recorded: RecordedAnswer[] = startRecording();
    const http = api(server);
    const email = 'contrato@aabify.test';
    const password = 'segredo123';

    // System and first-run setup.
    await http.get('/health');
    await http.get('/setup/status');
    const setup = await http.post<JsonBody>('/setup/initialize', { email: 'admin-contrato@aabify.test', password, name: 'Admin' });
    expect(setup.status).to.equal(201);
    const admin = setup.body.token as string;
    expect((await http.post('/setup/initialize', { email: 'outro@aabify.test', password, name: 'X' })).status).to.equal(403);
    await http.get('/openapi.json');
    await http.get('/docs');

    // Accounts and tokens (session JWT and aab_ API token), with the errors clients meet.
    expect((await http.post('/auth/register', { acceptTerms: true, email: 'nao-e-email', password })).status).to.equal(400);
    expect((await http.post<JsonBody>('/auth/register', { acceptTerms: true, email, password })).status).to.equal(201);
    // A taken address: 409 with where to sign in instead.
    expect((await http.post<JsonBody>('/auth/register', { acceptTerms: true, email, password })).status).to.equal(409);
    expect((await http.post('/auth/login', { email, password: 'errada123' })).status).to.equal(401);
    const signedIn = await http.post<JsonBody>('/auth/login', { email, password });
    expect(signedIn.status).to.equal(200);
    const session = signedIn.body.token as string;
    expect((await http.get('/auth/me')).status).to.equal(401);
    await http.get('/auth/me', session);
    await http.get('/auth/verify', session);
    const created = await http.post<JsonBody>('/auth/tokens', { name: 'contrato' }, session);
    expect(created.status).to.equal(201);
    const apiToken = created.body.token as string;
    expect((await http.get('/auth/me', apiToken)).status).to.equal(200);
    expect((await http.post('/auth/tokens', { name: 'pelo token' }, apiToken)).status).to.equal(403);
    await http.get('/auth/tokens', session);
    const adminToken = (await http.post<JsonBody>('/auth/tokens', { name: 'admin' }, admin)).body.token as string;
    const spare = await http.post<JsonBody>('/auth/tokens', { name: 'revogar' }, session);
    expect((await http.delete(`/auth/tokens/${spare.body.id as string}`, session)).status).to.equal(204);
    expect((await http.get('/account/keystore', apiToken)).body).to.deep.equal({ keystore: null });

    // Plans and payments as a user sees them.
    await http.get('/plans/public');
    await http.get('/plans', apiToken);
    await http.get('/plans/current', apiToken);
    await http.get('/plans/can-convert', apiToken);
    await http.get('/plans/usage-history', apiToken);
    await http.get('/payments/config');
    await http.get('/ready');
    await http.get('/auth/email-status', session);
    expect((await http.post('/auth/forgot-password', { email })).status).to.equal(200);
    expect((await http.post('/auth/reset-password', { token: 'x'.repeat(43), password: 'nova-senha-1' })).status).to.equal(400);
    expect((await http.get(`/auth/reset-password/${'x'.repeat(43)}/status`)).body).to.deep.equal({ valid: false });
    expect((await http.get('/auth/reset-password/curto/status')).status).to.equal(400);
    expect((await http.patch('/account/preferences', { notifyConversions: false }, session)).status).to.equal(200);
    expect((await http.patch('/account/preferences', { notifyConversionFailures: false, notifyProductNews: true }, session)).status).to.equal(200);
    expect((await http.patch('/account/profile', { name: 'Contrato' }, session)).status).to.equal(200);
    // No SMTP on this server: the change of address is refused, said plainly.
    expect((await http.post('/account/email-change', { newEmail: 'outro-contrato@aabify.test' }, session)).status).to.equal(503);
    expect((await http.post('/account/email-change/confirm', { token: 'y'.repeat(43) })).status).to.equal(400);
    await http.get('/account/play-credentials', apiToken);
    await http.get('/payments/purchases', apiToken);

    // Conversions: refused without a plan (402), then an admin's conversion from upload to download.
    const apk = buildZip(tinyApkEntries());
    expect((await uploadBytes(server, apiToken, apk)).status).to.equal(402);
    await http.get('/conversion/limits', apiToken);
    await http.get('/conversion/usage', apiToken);
    await http.get('/conversion/history?limit=5', apiToken);
    expect((await http.get('/conversion/history?limit=500', apiToken)).status).to.equal(400);
    expect((await http.get('/conversion/status/00000000-0000-4000-8000-000000000000', apiToken)).status).to.equal(404);
    const started = await uploadBytes(server, adminToken, apk);
    expect(started.status, JSON.stringify(started.body)).to.equal(201);
    const id = started.body.conversionId as string;
    await waitForStatus(server, adminToken, id, ['completed', 'failed']);
    expect((await http.get(`/conversion/status/${id}`, adminToken)).status).to.equal(200);
    await http.get(`/conversion/logs/${id}`, adminToken);
    await http.get('/conversion/history', adminToken);
    await http.post(`/conversion/generate-download-link/${id}`, undefined, adminToken);
    expect((await http.post(`/conversion/updates/${id}/ticket`, undefined, adminToken)).status).to.equal(201);
    await http.get(`/conversion/download/${id}`, adminToken);
    await http.get('/download/available', adminToken);
    expect((await http.post(`/conversion/cancel/${id}`, undefined, adminToken)).status).to.equal(409);
    // AAB → APK: the AAB just made, sent back as an .aab; an .aab that is no bundle is refused.
    const aab = Buffer.from(await (await fetch(`${server.url}/api/conversion/download/${id}`, { headers: { authorization: `Bearer ${adminToken}` } })).arrayBuffer());
    expect((await uploadBytes(server, adminToken, apk, { fileName: 'falso.aab' })).status).to.equal(400);
    const apkKind = await uploadBytes(server, adminToken, aab, { fileName: 'app.aab' });
    expect(apkKind.status, JSON.stringify(apkKind.body)).to.equal(201);
    const apkId = apkKind.body.conversionId as string;
    expect((await waitForStatus(server, adminToken, apkId, ['completed', 'failed'])).status).to.equal('completed');
    expect((await http.get<JsonBody>(`/conversion/status/${apkId}`, adminToken)).body.kind).to.equal('aab-to-apks');
    await http.get(`/conversion/download/${apkId}`, adminToken);
    // The device set of a profile the server lists; an unknown profile is refused with its code.
    const profiles = await http.get<{ profiles: { id: string }[] }>('/conversion/device-profiles', apiToken);
    const profile = profiles.body.profiles[0]!.id;
    const unknownProfile = await uploadBytes(server, adminToken, aab, { fileName: 'app.aab', options: { output: 'device-set', device: 'nenhum' } });
    expect(unknownProfile.body).to.include({ code: 'UNKNOWN_DEVICE_PROFILE' });
    const setKind = await uploadBytes(server, adminToken, aab, { fileName: 'app.aab', options: { output: 'device-set', device: profile } });
    expect(setKind.status, JSON.stringify(setKind.body)).to.equal(201);
    const setId = setKind.body.conversionId as string;
    const set = await waitForStatus(server, adminToken, setId, ['completed', 'failed']);
    expect(set.status, JSON.stringify(set)).to.equal('completed');
    expect((await http.get<JsonBody>(`/conversion/status/${setId}`, adminToken)).body.filename).to.equal('app.apks');
    await http.get(`/conversion/download/${setId}`, adminToken);

    // Administration (an admin's session; never an API token, not even an admin's), and a user at an admin route.
    expect((await http.get('/admin/users', apiToken)).status).to.equal(403);
    expect((await http.get('/admin/users', adminToken)).status).to.equal(403);
    for (const path of ['/admin/dashboard', '/admin/users', '/admin/admins', '/admin/conversions', '/admin/queue', '/admin/system', '/admin/config', '/admin/plans', '/admin/payments/purchases', '/admin/payments/status', '/admin/emails']) {
      expect((await http.get(path, admin)).status, path).to.equal(200);
    }
    stopRecording();

    const checker = new ContractChecker(doc);
    const problems = recorded.flatMap((answer) => checker.problems(answer));
    expect(recorded.length).to.be.greaterThan(45);
    expect(problems, `answers that do not match the OpenAPI document:\n  ${problems.join('\n  ')}`).to.deep.equal([]);
  });

  it('unknownApiRoute_answersTheOneErrorShape', async () => {
    const res = await api(server).get<Doc>('/nao-existe');
    expect(res.status).to.equal(404);
    const checker = new ContractChecker(doc);
    // Any path: the 404 of an unknown route is the Error schema.
    expect(checker.problems({ method: 'GET', path: '/api/auth/me', status: 401, contentType: 'application/json', body: res.body })).to.deep.equal([]);
    expect(res.body.code).to.equal('ROUTE_NOT_FOUND');
  });
});
