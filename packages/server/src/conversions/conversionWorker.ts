/**
 * Worker-thread entry: runs the engine off the main thread, one task at a time. It is a
 * second entry point of the server bundle (dist/conversionWorker.js) and runs from source
 * under tsx in tests.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import * as converter from '@aabify/converter';
import type { ConversionStage } from '@aabify/converter';
import type { EngineLogEntry, EngineModule, EngineSelection, FromWorker, ToWorker } from './engine.js';
import { ENGINE_THREAD_NICE, isApksTask, serializeError } from './engine.js';

const port = parentPort;
if (!port) throw new Error('conversionWorker must run in a worker thread');

// The engine runs below the process's main thread (ENGINE_THREAD_NICE).
if (process.platform === 'linux') {
  try {
    setPriority(ENGINE_THREAD_NICE);
  } catch {
    // Not allowed here (a sandbox): the engine runs at the main thread's priority.
  }
}

const selection = (workerData as { engine?: EngineSelection } | undefined)?.engine ?? {};

async function loadEngine(): Promise<EngineModule> {
  if (!selection.module) return converter;
  const specifier = /^[a-z]+:/i.test(selection.module) ? selection.module : pathToFileURL(selection.module).href;
  const mod = (await import(specifier)) as EngineModule;
  mod.configure?.(selection.config);
  return mod;
}

const enginePromise = loadEngine();
const running = new Map<number, AbortController>();
const send = (m: FromWorker) => port.postMessage(m);

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'abort') {
    running.get(msg.taskId)?.abort();
    return;
  }
  const { taskId, task } = msg;
  const controller = new AbortController();
  running.set(taskId, controller);
  void (async () => {
    try {
      const engine = await enginePromise;
      const hooks = {
        overwrite: true,
        signal: controller.signal,
        onProgress: (stage: ConversionStage, fraction: number) => send({ type: 'progress', taskId, stage, fraction }),
        onLog: (entry: EngineLogEntry) => send({ type: 'log', taskId, entry }),
      };
      const report = isApksTask(task)
        ? await (engine.buildApks ?? converter.buildApks)(task.input, task.output, {
            ...(task.kind === 'device-set' ? { mode: 'device', deviceSpec: task.deviceSpec } : { mode: 'universal' }),
            ...(task.sign ? { sign: task.sign } : {}),
            ...hooks,
          })
        : await engine.convertApk(task.input, task.output, {
            ...task.options,
            ...(task.obb ? { obb: task.obb } : {}),
            // options.sign is the API's boolean; the engine gets the key itself, or nothing.
            sign: task.sign,
            ...hooks,
          });
      send({ type: 'done', taskId, report });
    } catch (err) {
      send({ type: 'failed', taskId, error: serializeError(err) });
    } finally {
      running.delete(taskId);
      // What this thread keeps between tasks, for the pool's figures (/metrics, the benches).
      const { heapTotal, heapUsed, external } = process.memoryUsage();
      send({ type: 'memory', heapTotal, heapUsed, external });
    }
  })();
});

enginePromise.then(
  () => send({ type: 'ready' }),
  (err: unknown) => {
    // Nothing can run without an engine: report and let the pool replace this worker.
    console.error('conversion worker: engine failed to load', err);
    process.exit(1);
  },
);
