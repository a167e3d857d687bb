import { startTestCluster, stopTestCluster } from './helpers/postgres.js';
import { suiteAnswers } from './helpers/http.js';
import { armSecretLog, leakedSecrets, secretLogFigures } from './helpers/secretLog.js';

/** Mocha root hooks: the test Postgres lives for the whole run. */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120000);
    armSecretLog();
    await startTestCluster();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60000);
    await stopTestCluster();
    if (suiteAnswers) await checkSuiteAnswers(suiteAnswers);
    checkSecretsNotLogged();
  },
};

/** No secret the run minted (tokens, links, tickets, e-mailed codes) in any test server's log line. */
function checkSecretsNotLogged(): void {
  const leaks = leakedSecrets();
  const { secrets, lines } = secretLogFigures();
  console.log(`      Secrets in the log: ${secrets} secrets minted, ${lines} log lines searched, ${leaks.length} found`);
  if (leaks.length > 0) throw new Error(`secrets in the log:\n  ${leaks.map((l) => `${l.source}: ${l.line}`).join('\n  ')}`);
}

/** AABIFY_API_CONTRACT=1: every answer the run's tests received, against the OpenAPI document. */
async function checkSuiteAnswers(answers: NonNullable<typeof suiteAnswers>): Promise<void> {
  const { VERSION } = await import('@aabify/shared');
  const { buildOpenApiDocument } = await import('../src/openapi/document.js');
  const { ContractChecker, findOperation } = await import('./helpers/apiContract.js');
  const doc = buildOpenApiDocument(VERSION);
  const checker = new ContractChecker(doc);
  // Paths no operation matches are test-only routers (guards.test's own app) or unknown routes;
  // the routes the app serves are checked against the document by test/openapi.test.ts.
  const problems = answers.filter((a) => findOperation(doc, a.method, a.path)).flatMap((a) => checker.problems(a));
  console.log(`      API contract: ${answers.length} answers checked, ${problems.length} off the document`);
  if (problems.length > 0) throw new Error(`answers that do not match the OpenAPI document:\n  ${[...new Set(problems)].join('\n  ')}`);
}
