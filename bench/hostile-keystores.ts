/**
 * Hostile-client benchmark, keystore attack: N accounts upload at once a PKCS#12
 * keystore whose legacy PKCS#12 KDF runs 1,000,000 iterations (MAC, key and certificate bags —
 * made by keytool, or by our own writer with its MAC count patched when keytool is missing),
 * while a client polls GET /api/health back to back. Prints each upload's answer, the worst
 * health latency and the longest event-loop delay of the server's process (it runs in this one).
 *
 *   npx tsx bench/hostile-keystores.ts [--uploads 4] [--iterations 1000000]
 *
 * `keystoreAttack` is the attack alone, for bench/hostile.ts to run beside the others.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasKeytool, keytoolKeystore, pkcs12WithMacIterations } from '../packages/converter/test/helpers/keystores.js';
import { startTestCluster, stopTestCluster } from '../packages/server/test/helpers/postgres.js';
import { startTestServer } from '../packages/server/test/helpers/server.js';
import { buildUser, tokenFor } from '../packages/server/test/helpers/factories.js';
import { probeStalls, type StallFigures } from '../packages/server/test/helpers/healthProbe.js';

const PASSWORD = 'senha-do-ataque';

export interface KeystoreAttackResult extends StallFigures {
  keystore: string;
  /** `status code` of each upload, e.g. `422 KEYSTORE_ITERATIONS`. */
  answers: string[];
  seconds: number;
}

/** Runs the attack against `target` (a server whose accounts `newToken` makes); returns the figures. */
export async function keystoreAttack(
  target: { url: string; newToken(): Promise<string> },
  opts: { uploads?: number; iterations?: number } = {},
): Promise<KeystoreAttackResult> {
  const uploads = opts.uploads ?? 4;
  const iterations = opts.iterations ?? 1_000_000;
  const dir = mkdtempSync(join(tmpdir(), 'aabify-hostile-ks-'));
  try {
    const keytool = hasKeytool();
    const keystore = keytool
      ? keytoolKeystore({ file: join(dir, 'legacy.p12'), password: PASSWORD, iterations, legacy: true })
      : pkcs12WithMacIterations(PASSWORD, iterations);
    const body = JSON.stringify({ keystore: keystore.toString('base64'), storePassword: PASSWORD });
    const tokens = await Promise.all(Array.from({ length: uploads }, () => target.newToken()));
    const probe = probeStalls(target.url);
    const started = performance.now();
    const answers = await Promise.all(
      tokens.map(async (token) => {
        const res = await fetch(`${target.url}/api/account/keystore`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body,
        });
        const answer = (await res.json()) as { code?: string };
        return `${res.status} ${answer.code ?? 'saved'}`;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const stalls = await probe.stop();
    return {
      keystore: keytool ? `keytool legacy PKCS#12 (3DES/RC2, SHA-1 MAC), ${iterations} iterations` : `PBES2 store, PKCS#12-KDF MAC at ${iterations} iterations`,
      answers,
      seconds: Math.round(seconds * 10) / 10,
      ...stalls,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await startTestCluster();
  const server = await startTestServer();
  try {
    const r = await keystoreAttack(
      { url: server.url, newToken: async () => tokenFor(server, await buildUser(server)) },
      { uploads: arg('uploads', 4), iterations: arg('iterations', 1_000_000) },
    );
    console.log(`keystore attack: ${r.answers.length} uploads of a ${r.keystore}`);
    console.log(`  answers: ${r.answers.join(', ')} (all answered after ${r.seconds} s)`);
    console.log(`  /api/health: ${r.healthChecks} answers, worst ${r.worstHealthMs} ms, ${r.healthFailures} failures`);
    console.log(`  server event-loop delay: max ${r.maxEventLoopDelayMs} ms`);
  } finally {
    await server.stop();
    await stopTestCluster();
  }
  process.exit(process.exitCode ?? 0);
}
