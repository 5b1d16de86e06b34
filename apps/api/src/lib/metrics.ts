import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolCounts } from '../db/client.ts';
import { AppError } from './errors.ts';

const PREFIX = 'kaminuza_';

/** Seconds: from a cached read (a few ms) to a long export or a slow upload chunk. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface GaugeOptions<L extends string> {
  /** Without the `kaminuza_` prefix, which is added. */
  name: string;
  help: string;
  labelNames?: readonly L[];
  /** Called at each scrape to set the gauge's current values (`gauge.set(...)`), e.g. a queue's depth. */
  collect?: (gauge: Gauge<L>) => void | Promise<void>;
}

export interface CounterOptions<L extends string> {
  /** Without the `kaminuza_` prefix, which is added; end it in `_total`. */
  name: string;
  help: string;
  labelNames?: readonly L[];
}

/**
 * The instance's Prometheus metrics. Other parts add theirs through `gauge` and `counter` (or the
 * registry itself); the process metrics (memory, CPU, event loop lag, handles) are added at scrape.
 */
export interface Metrics {
  readonly registry: Registry;
  gauge<L extends string = never>(options: GaugeOptions<L>): Gauge<L>;
  counter<L extends string = never>(options: CounterOptions<L>): Counter<L>;
  /** One observation per answered request: its route's pattern (never the raw URL), method and status class. */
  observeRequest(method: string, route: string | undefined, statusCode: number, seconds: number): void;
  /** The text exposition of every metric, with its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/**
 * Process metrics are the process's, not one app's: one registry for them, made once, so that building
 * several apps in one process (tests) neither registers them twice nor samples the event loop many times.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: PREFIX });
  }
  return processRegistry;
}

export function createMetrics(options: { poolCounts?: () => PoolCounts } = {}): Metrics {
  const registry = new Registry();
  const requests = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time to answer an HTTP request, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });

  const metrics: Metrics = {
    registry,
    gauge<L extends string = never>({ name, help, labelNames, collect }: GaugeOptions<L>): Gauge<L> {
      return new Gauge<L>({
        name: `${PREFIX}${name}`,
        help,
        labelNames: labelNames ?? [],
        registers: [registry],
        ...(collect
          ? {
              collect(this: Gauge<L>) {
                return collect(this);
              },
            }
          : {}),
      });
    },
    counter<L extends string = never>({ name, help, labelNames }: CounterOptions<L>): Counter<L> {
      return new Counter<L>({ name: `${PREFIX}${name}`, help, labelNames: labelNames ?? [], registers: [registry] });
    },
    observeRequest(method, route, statusCode, seconds) {
      requests.observe(
        { method, route: route ?? 'unmatched', status_class: `${Math.floor(statusCode / 100)}xx` },
        seconds,
      );
    },
    async scrape() {
      const merged = Registry.merge([processMetrics(), registry]);
      return { contentType: merged.contentType, body: await merged.metrics() };
    },
  };

  const { poolCounts } = options;
  if (poolCounts) {
    metrics.gauge({
      name: 'db_pool_connections',
      help: 'Connections the PostgreSQL pool holds open (busy and idle)',
      collect: (gauge) => gauge.set(poolCounts().total),
    });
    metrics.gauge({
      name: 'db_pool_idle_connections',
      help: 'Open PostgreSQL pool connections not running a query',
      collect: (gauge) => gauge.set(poolCounts().idle),
    });
    metrics.gauge({
      name: 'db_pool_waiting_queries',
      help: 'Queries waiting for a PostgreSQL pool connection because every one is busy',
      collect: (gauge) => gauge.set(poolCounts().waiting),
    });
  }
  return metrics;
}

export interface MetricsRouteOptions {
  metrics: Metrics;
  /** `Authorization: Bearer <token>` required when set. */
  token?: string;
  /** Without a token: production answers 404 (never public by mistake), elsewhere it is open. */
  production: boolean;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compared in constant time (through fixed-length digests, so the length leaks nothing either). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/**
 * Times every request (one histogram observation, after the answer is sent) and serves `GET /metrics`.
 * Registered at the root (fastify-plugin) so its hook sees the routes of every prefix.
 */
export const metricsPlugin = fp<MetricsRouteOptions>(
  async (app, { metrics, token, production }) => {
    app.addHook('onResponse', async (request, reply) => {
      metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    });

    // Scraped every few seconds: only its warnings and errors are logged, not each request.
    app.get('/metrics', { logLevel: 'warn', schema: { hide: true } }, async (request, reply) => {
      if (token === undefined && production) throw new AppError('NOT_FOUND');
      if (token !== undefined && !bearerMatches(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new AppError('UNAUTHENTICATED');
      }
      const { contentType, body } = await metrics.scrape();
      reply.header('cache-control', 'no-store').type(contentType);
      return body;
    });
  },
  { name: 'metrics' },
);
