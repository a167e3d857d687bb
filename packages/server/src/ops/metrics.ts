/**
 * GET /metrics in Prometheus text format (prom-client), one registry per process: HTTP latency
 * by route pattern, conversions by outcome, engine duration, queue depth, worker utilisation,
 * payments by status, the application pool's connections and how long queries wait for one,
 * and which instance answers (`aabify_instance_info`). Off (404) unless METRICS_TOKEN is set; then it answers only to
 * `Authorization: Bearer <METRICS_TOKEN>`. Mounted outside /api, so the API's rate limits never
 * apply to it (docs/deploy.md). Queue depth and payments are database-wide figures: every
 * process reports the same value (aggregate them with max, not sum).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Config } from '../config.js';
import { ApiError } from '../http/errors.js';

export type ConversionOutcome = 'completed' | 'failed' | 'cancelled' | 'crashed';

export interface Metrics {
  readonly registry: Registry;
  /** Request latency by method, route pattern and status (one series set per process, whatever the apps). */
  readonly httpLatency: Histogram<'method' | 'route' | 'status'>;
  conversionFinished(outcome: ConversionOutcome): void;
  engineRan(outcome: 'completed' | 'failed', seconds: number): void;
  /** Where the worker gauges read from (the runner and pool are built after the metrics they report to). */
  trackWorkers(source: WorkerFigures): void;
}

/** What this process's conversion workers are doing now. */
export interface WorkerFigures {
  running(): number;
  utilisation(): number;
  /** Engine threads alive, busy or idle. */
  threads(): number;
  /** Their V8 heaps and external memory, as each last reported it (bytes). */
  memory(): { heapTotal: number; heapUsed: number; external: number };
}

export function createMetrics(ctx: { sequelize: Sequelize; config: Pick<Config, 'role'>; instance: { readonly id: string }; version: string }): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ role: ctx.config.role });
  collectDefaultMetrics({ register: registry, prefix: 'aabify_' });
  const conversions = new Counter({
    name: 'aabify_conversions_total',
    help: 'Conversions finished by this process, by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const engine = new Histogram({
    name: 'aabify_engine_duration_seconds',
    help: 'Time the engine took per conversion run',
    labelNames: ['outcome'],
    buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600],
    registers: [registry],
  });
  const count = async (sql: string) => ctx.sequelize.query<{ key: string; n: string }>(sql, { type: QueryTypes.SELECT });
  new Gauge({
    name: 'aabify_queue_depth',
    help: 'Conversions waiting or running, by status (database-wide)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await count(`SELECT status AS key, count(*) AS n FROM conversions WHERE status IN ('queued', 'processing') GROUP BY status`);
      for (const s of ['queued', 'processing']) this.set({ status: s }, Number(rows.find((r) => r.key === s)?.n ?? 0));
    },
  });
  new Gauge({
    name: 'aabify_payments',
    help: 'Payments by status (database-wide)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await count(`SELECT status AS key, count(*) AS n FROM payments GROUP BY status`)) this.set({ status: r.key }, Number(r.n));
    },
  });
  // Which process this is (host:pid:random) and what it runs: said here, behind METRICS_TOKEN,
  // and nowhere a stranger can ask (/api/ready names no process).
  new Gauge({
    name: 'aabify_instance_info',
    help: 'This process: its instance id (host:pid:random) and version; always 1',
    labelNames: ['instance', 'version'],
    registers: [registry],
  }).set({ instance: ctx.instance.id, version: ctx.version }, 1);
  let workers: WorkerFigures = { running: () => 0, utilisation: () => 0, threads: () => 0, memory: () => ({ heapTotal: 0, heapUsed: 0, external: 0 }) };
  new Gauge({
    name: 'aabify_worker_busy',
    help: 'Conversions this process is running',
    registers: [registry],
    collect() {
      this.set(workers.running());
    },
  });
  new Gauge({
    name: 'aabify_worker_utilisation',
    help: 'Engine threads of this process busy, as a fraction of its pool (0 in web processes)',
    registers: [registry],
    collect() {
      this.set(workers.utilisation());
    },
  });
  new Gauge({
    name: 'aabify_worker_threads',
    help: 'Engine threads of this process alive, busy or idle (an idle one ends after a few seconds)',
    registers: [registry],
    collect() {
      this.set(workers.threads());
    },
  });
  new Gauge({
    name: 'aabify_worker_heap_bytes',
    help: "Engine threads' V8 heaps (total: reserved, used: live objects) and their external memory, after each thread's latest task",
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      const m = workers.memory();
      this.set({ kind: 'total' }, m.heapTotal);
      this.set({ kind: 'used' }, m.heapUsed);
      this.set({ kind: 'external' }, m.external);
    },
  });
  trackPool(ctx.sequelize, registry);
  const httpLatency = new Histogram({
    name: 'aabify_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    registry,
    httpLatency,
    conversionFinished: (outcome) => conversions.inc({ outcome }),
    engineRan: (outcome, seconds) => engine.observe({ outcome }, seconds),
    trackWorkers: (source) => {
      workers = source;
    },
  };
}

/** The counters of sequelize-pool's pool (the ones its typings leave out). */
interface PoolCounters {
  available: number;
  using: number;
  waiting: number;
}

/**
 * The application pool: its connections by state, and how long each query or transaction waited
 * for a connection. When many requests share the pool (a burst of uploads), the wait is what a
 * read that needs one connection pays on top of its own query.
 */
function trackPool(sequelize: Sequelize, registry: Registry): void {
  const wait = new Histogram({
    name: 'aabify_db_pool_wait_seconds',
    help: "Time a query or transaction waited for a connection of this process's application pool",
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // Each acquire has its own options object; the pair of hooks times it.
  const asked = new WeakMap<object, () => void>();
  sequelize.addHook('beforePoolAcquire', (options: object) => {
    asked.set(options, wait.startTimer());
  });
  sequelize.addHook('afterPoolAcquire', (_connection: unknown, options: object) => {
    asked.get(options)?.();
    asked.delete(options);
  });
  const pool = (sequelize.connectionManager as unknown as { pool?: Partial<PoolCounters> }).pool;
  new Gauge({
    name: 'aabify_db_pool_connections',
    help: "This process's application pool: connections in use, idle, and queries waiting for one",
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'in_use' }, pool?.using ?? 0);
      this.set({ state: 'idle' }, pool?.available ?? 0);
      this.set({ state: 'waiting' }, pool?.waiting ?? 0);
    },
  });
}

/**
 * The route pattern, never the raw URL (ids would make one series per conversion). Routing is
 * case-insensitive but req.baseUrl keeps the client's spelling (/API/CoNvErSiOn/…), and every
 * spelling would be a series of its own, kept for the process's life: the mount paths are all
 * lower-case literals (http/api.ts, admin/routes.ts ...), so the lower-cased baseUrl
 * is the mount as declared.
 */
function routeOf(req: Request): string {
  const pattern = req.route?.path;
  if (typeof pattern === 'string') return `${req.baseUrl.toLowerCase()}${pattern}`;
  return req.originalUrl.toLowerCase().startsWith('/api') ? '/api/unmatched' : 'static';
}

/** Observes every request's latency by method, route pattern and status. */
export function httpMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const end = metrics.httpLatency.startTimer();
    res.once('finish', () => end({ method: req.method, route: routeOf(req), status: String(res.statusCode) }));
    next();
  };
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** GET /metrics: 404 without METRICS_TOKEN, 401 without the right bearer. */
export function metricsEndpoint(metrics: Metrics, token: string | undefined): RequestHandler {
  return async (req, res) => {
    if (!token) throw ApiError.notFound();
    const given = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
    if (!given || !sameSecret(given, token)) throw ApiError.unauthorized('Token de métricas inválido.', 'METRICS_TOKEN_INVALID');
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(await metrics.registry.metrics());
  };
}
