/**
 * Worker-thread entry that opens one keystore with the engine and answers what the account
 * shows of it (never the key). Started once per operation by keystores/opener.ts, which
 * terminates it past its time budget. A second entry of the server bundle (dist/keystoreWorker.js).
 */
import { parentPort } from 'node:worker_threads';
import { openKeystore } from '@aabify/converter';
import { serializeError } from '../conversions/engine.js';
import type { FromKeystoreWorker, ToKeystoreWorker } from './opener.js';

const port = parentPort;
if (!port) throw new Error('keystoreWorker must run in a worker thread');
const send = (m: FromKeystoreWorker) => port.postMessage(m);

port.once('message', (msg: ToKeystoreWorker) => {
  try {
    const { keystore, storePassword, alias, keyPassword } = msg.job;
    const key = openKeystore(keystore, { storePassword, alias, keyPassword });
    const leaf = key.chain[0];
    send({
      type: 'opened',
      key: {
        alias: key.alias,
        format: key.format,
        keyAlgorithm: key.algorithm,
        keySize: key.bits,
        subject: leaf.subject,
        certificateSha1: leaf.sha1,
        certificateSha256: leaf.sha256,
        notAfter: leaf.notAfter.toISOString(),
      },
    });
  } catch (err) {
    send({ type: 'failed', error: serializeError(err) });
  }
});
send({ type: 'ready' });
