import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from './config.ts';
import { envelope } from './http/envelope.ts';
import { errorsPlugin } from './http/plugins/errors.ts';
import { openapiPlugin } from './http/plugins/openapi.ts';
import { viewerPlugin } from './http/plugins/viewer.ts';
import { analyticsRoutes } from './http/routes/analytics.ts';
import { discoveryRoutes } from './http/routes/discovery.ts';
import { healthRoutes } from './http/routes/health.ts';
import { listRoutes } from './http/routes/lists.ts';
import { vendorRoutes } from './http/routes/vendor.ts';
import { ErrorBody } from './http/schemas/common.ts';
import {
  AdvisorySchema,
  IncidentSchema,
  MaintenanceSchema,
  UpdateSchema,
  VendorStatsSchema,
  VendorStatusSchema,
  VendorSummarySchema,
} from './http/schemas/records.ts';
import { loadCatalog, readCatalog } from './services/catalog-loader.ts';
import { type Clock, systemClock } from './services/context.ts';
import { createServices, type Services } from './services/index.ts';
import type { DataWindow } from './domain/time-window.ts';
import { openStore, type Store } from './store/db.ts';
import { webPlugin } from './web/plugin.ts';

export const API_PREFIX = '/api/v1/infrastructure';

export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
  /** An optional dependency degrades the service but does not make it unready. */
  optional?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    services: Services;
    readinessChecks: ReadinessCheck[];
    envelope<T>(items: T[], extra?: { total?: number; dataWindow?: DataWindow; hint?: string }): Promise<ReturnType<typeof envelope<T>>>;
  }
  interface FastifyContextConfig {
    /** Response-cache TTL of a public route; absent = not cached. */
    cacheTtlSeconds?: number;
  }
}

export interface AppOptions {
  config: Config;
  clock?: Clock;
  /** An already opened store (tests share one across apps); otherwise opened from config. */
  store?: Store;
  catalogFile?: string;
}

/** The application as a Fastify plugin: infrastructure, then services, then routes. */
export const appPlugin = fp(
  async (app: FastifyInstance, opts: AppOptions) => {
    const { config } = opts;
    const clock = opts.clock ?? systemClock;
    const ownsStore = !opts.store;
    const store = opts.store ?? openStore(config);
    if (ownsStore) app.addHook('onClose', async () => store.close());
    if (config.autoMigrate) {
      await store.migrate();
      await loadCatalog(createServices(store, config, clock).repos.vendors, readCatalog(opts.catalogFile), clock.now());
    }

    const services = createServices(store, config, clock);
    app.decorate('config', config);
    app.decorate('services', services);
    app.decorate('readinessChecks', [{ name: 'database', check: () => store.ping() }] as ReadinessCheck[]);
    app.decorate('envelope', async function <T>(items: T[], extra = {}) {
      const lastUpdated = await services.repos.sources.lastSuccessfulPoll();
      return envelope({ source: config.demo ? 'demo' : 'live', now: clock.now(), lastUpdated }, items, extra);
    });

    for (const schema of [
      ErrorBody,
      IncidentSchema,
      MaintenanceSchema,
      AdvisorySchema,
      UpdateSchema,
      VendorSummarySchema,
      VendorStatusSchema,
      VendorStatsSchema,
    ]) {
      app.addSchema(schema);
    }

    await app.register(errorsPlugin);
    await app.register(formbody);
    await app.register(openapiPlugin);
    await app.register(viewerPlugin);

    await app.register(healthRoutes);
    await app.register(
      async (api) => {
        await api.register(discoveryRoutes);
        await api.register(vendorRoutes);
        await api.register(listRoutes);
        await api.register(analyticsRoutes);
      },
      { prefix: API_PREFIX },
    );
    await app.register(webPlugin);
  },
  { name: 'vendor-status-app' },
);

export function fastifyOptions(config: Config): FastifyServerOptions {
  return {
    logger: {
      level: config.logLevel,
      // Credentials never reach a log line.
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
    },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
    ajv: { customOptions: { coerceTypes: true, removeAdditional: true, useDefaults: true, allErrors: false } },
  };
}

/** Builds the whole service on a new Fastify instance (what server.ts and the tests run). */
export async function buildApp(config: Config, opts: Omit<AppOptions, 'config'> = {}): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions(config));
  app.addHook('onSend', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
  });
  await app.register(appPlugin, { ...opts, config });
  return app;
}
