import Fastify, { type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import type { Database } from './db/client.ts';
import { docsDirectives, inlineSources, siteDirectives } from './lib/csp.ts';
import { envelope } from './lib/envelope.ts';
import { errorBodyOpenApiSchema } from './lib/errors.ts';
import { safeInput } from './lib/safe-input.ts';
import { securityHeaders } from './lib/security-headers.ts';
import { mailboxEnabled, trustProxy, type Env } from './lib/env.ts';
import { loggerOptions, OneLineRequestLogs, requestId } from './lib/logging.ts';
import { createMetrics, metricsPlugin, type Metrics } from './lib/metrics.ts';
import { sameOriginGuard } from './lib/same-origin.ts';
import { loadWebDist, webDocuments, webRoutes } from './lib/web.ts';
import { loadLivePages } from './lib/live-pages.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { catalogueRoutes } from './modules/catalogue/catalogue.routes.ts';
import { catalogueSummary } from './modules/catalogue/catalogue.service.ts';
import { devMailboxRoutes } from './modules/email/email.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import type { DrainSwitch } from './modules/health/drain.ts';
import { waitlistRoutes } from './modules/waitlist/waitlist.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { partnerRoutes } from './modules/partners/partners.routes.ts';
import { institutionOnboardingRoutes } from './modules/institution-onboarding/institution-onboarding.routes.ts';
import { institutionRegistry } from './modules/institution-onboarding/registry.service.ts';
import { formsRoutes } from './modules/forms/forms.routes.ts';
import { programsRoutes } from './modules/programs/programs.routes.ts';
import { cyclesRoutes } from './modules/cycles/cycles.routes.ts';
import { teamRoutes } from './modules/team/team.routes.ts';
import { partnerSettingsRoutes } from './modules/partner-settings/partner-settings.routes.ts';
import { PARTNER_API_SECURITY, partnerApiRoutes } from './modules/partner-api/partner-api.routes.ts';
import { createAuth } from './modules/auth/better-auth.ts';
import { authentication } from './modules/auth/guard.ts';
import { openFileStores, type FileStores } from './lib/storage/index.ts';
import { startJobQueue } from './lib/jobs/queue.ts';
import { listenForRelays } from './lib/jobs/relay.ts';
import type { Mailer } from './lib/mailer.ts';
import { backgroundJobs, type BackgroundOptions } from './jobs.ts';
import { documentsRoutes } from './modules/documents/documents.routes.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { openUploadArea } from './modules/uploads/upload-area.ts';
import { studentsRoutes } from './modules/students/students.routes.ts';
import { eligibilityRoutes } from './modules/eligibility/eligibility.routes.ts';
import { institutionsMetBy } from './modules/eligibility/index.ts';
import { homeRoutes } from './modules/home/home.routes.ts';
import { geoRoutes } from './modules/geo/geo.routes.ts';
import { supportRoutes } from './modules/support/support.routes.ts';
import { chatsRoutes } from './modules/chats/chats.routes.ts';
import { offlineGeocoder } from './modules/geo/geocoder.ts';
import { messagingRoutes } from './modules/messaging/messaging.routes.ts';
import { createRealtimeHub } from './lib/realtime.ts';
import { messagingStaff } from './modules/partners/partners.service.ts';
import { applicationsRoutes } from './modules/applications/applications.routes.ts';
import { submissionsRoutes } from './modules/submissions/submissions.routes.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { financeRoutes } from './modules/payments/finance.routes.ts';
import { refundingProvidersFrom } from './modules/payments/refund-providers.ts';
import { waiversRoutes } from './modules/waivers/waivers.routes.ts';
import { refereesRoutes } from './modules/referees/referees.routes.ts';
import { offerClockRoutes } from './dev/offer-clock.routes.ts';
import { devPhoneRoutes } from './modules/payments/dev-phone.routes.ts';
import type { SimulatorEndpoint } from './modules/payments/dev-phone.client.ts';
import { decisionsRoutes } from './modules/decisions/decisions.routes.ts';
import { reviewRoutes } from './modules/review/review.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { accountDataRoutes } from './modules/account-data/account-data.routes.ts';

export interface AppOptions {
  database: Database;
  env: Env;
  /** Defaults to the env's level and redaction; tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
  /** Stored files and uploads in progress; opened from the env when not given. */
  files?: FileStores;
  /** The mail transport emails are delivered through; none: they wait in the outbox. */
  mailer?: Mailer | null;
  /**
   * Whether this process runs the background jobs (the api server does). Without, the app only sends
   * jobs: tests run the handlers they exercise themselves.
   */
  work?: boolean;
  /** The sandbox's callback delivery and retries (tests deliver through app.inject). */
  sandboxCallbacks?: BackgroundOptions['sandboxCallbacks'];
  mobileMoneyRetry?: BackgroundOptions['mobileMoneyRetry'];
  /** The instance's metrics, for parts outside the app to add theirs to; made here when not given. */
  metrics?: Metrics;
  /** Switched on at shutdown so /ready answers 503 while requests are still served. */
  drain?: DrainSwitch;
  /** The payment simulators the server started (development): the dev phone's routes exist only with them. */
  paymentSimulators?: readonly SimulatorEndpoint[];
}

const DOCS_PREFIX = '/api/docs';

export async function buildApp({
  database,
  env,
  logger,
  files: given,
  mailer = null,
  work = false,
  sandboxCallbacks,
  mobileMoneyRetry,
  metrics,
  drain,
  paymentSimulators = [],
}: AppOptions) {
  const app = Fastify({
    logger: logger ?? loggerOptions(env),
    genReqId: requestId,
    trustProxy: trustProxy(env.TRUST_PROXY),
    logController: new OneLineRequestLogs(),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const files = given ?? openFileStores(env);
  // Stores opened here are this app's to close; given ones belong to the caller.
  if (!given) app.addHook('onClose', () => files.close());

  // First hook, so even requests rejected by later hooks can be traced by their id.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  await app.register(envelope);
  await app.register(safeInput);
  const instanceMetrics =
    metrics ?? createMetrics({ poolCounts: database.poolCounts ? () => database.poolCounts!() : undefined });
  await app.register(metricsPlugin, {
    metrics: instanceMetrics,
    token: env.METRICS_TOKEN,
    production: env.NODE_ENV === 'production',
  });
  const stopReporting = database.onConnectionError((error, source) =>
    app.log.warn(
      { err: { message: error.message, code: (error as { code?: unknown }).code }, source },
      'database connection lost',
    ),
  );
  app.addHook('onClose', async () => stopReporting());

  const dist = loadWebDist(env.WEB_DIST);
  if (!dist) {
    app.log.warn(
      `No built web app at ${env.WEB_DIST} (index.html missing): serving the API only. Run \`npm run build\` to serve the site too.`,
    );
  }

  const site = siteDirectives(inlineSources(dist ? webDocuments(dist) : []));
  // Swagger UI gets a relaxed policy on its own routes only.
  securityHeaders(app, {
    site,
    docs: docsDirectives(site),
    isDocs: (url) => url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`),
  });
  await app.register(compress, { encodings: ['br', 'gzip'] });
  app.addHook('onRequest', sameOriginGuard(env.PUBLIC_URL));

  await app.register(swagger, {
    openapi: {
      info: { title: 'Kaminuza API', version: '1' },
      servers: [{ url: env.PUBLIC_URL }],
      tags: [
        {
          name: 'partner-api',
          description:
            "An institution's own systems read its records here with an API key from its dashboard (Settings → API keys), sent as `Authorization: Bearer <key>`. Each key reads only its institution's records, within its scopes, up to 120 calls a minute (then 429 with Retry-After). Lists are newest first: pass `next_cursor` back as `cursor` until it is null.",
        },
      ],
      components: {
        schemas: { ErrorBody: errorBodyOpenApiSchema() },
        securitySchemes: {
          [PARTNER_API_SECURITY]: {
            type: 'http',
            scheme: 'bearer',
            description: "An institution's API key, made in its dashboard (Settings → API keys).",
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });

  const auth = createAuth(database.db, env, app.log);
  await app.register(authentication, { auth, db: database.db });

  // Messages are small notices; anything bigger from a client is refused by ws itself.
  await app.register(websocket, { options: { maxPayload: 4096 } });
  const hub = createRealtimeHub(database, app.log, messagingStaff);
  // Listening starts with the app, so a socket accepted once it listens never misses a notification.
  app.addHook('onReady', () => hub.start());
  app.addHook('preClose', () => hub.stop());

  // The job queue opens with the app (its tables are made or upgraded then) and stops after the last
  // request: what a request sends always has a queue to go to.
  // The uploads in progress, for the tus routes and the clean-up job.
  const uploadArea = openUploadArea(files.uploads);
  const background = await backgroundJobs({
    database,
    env,
    storage: files.storage,
    uploadArea,
    mailer,
    log: app.log,
    ...(sandboxCallbacks ? { sandboxCallbacks } : {}),
    ...(mobileMoneyRetry ? { mobileMoneyRetry } : {}),
  });
  const jobFailures = instanceMetrics.counter({
    name: 'job_failures_total',
    help: 'Failed job attempts run by this instance, by queue; final: no retry was left.',
    labelNames: ['queue', 'final'],
  });
  const jobs = await startJobQueue({
    backend: database.connection,
    definitions: background.definitions,
    log: app.log,
    work,
    onFailure: (queue, final) => jobFailures.inc({ queue, final: String(final) }),
  });
  // The queues' depth, shared by every instance (read from the database at each scrape).
  instanceMetrics.gauge({
    name: 'jobs',
    help: 'Jobs in the queue by queue and state: queued (waiting, retries included), active, failed.',
    labelNames: ['queue', 'state'],
    collect: async (gauge) => {
      for (const { queue, queued, active, failed } of await jobs.counts()) {
        gauge.set({ queue, state: 'queued' }, queued);
        gauge.set({ queue, state: 'active' }, active);
        gauge.set({ queue, state: 'failed' }, failed);
      }
    },
  });
  const stopRelays = work
    ? await listenForRelays({ database, queue: jobs, relays: background.relays, log: app.log })
    : async () => undefined;
  app.addHook('onClose', async () => {
    await stopRelays();
    await jobs.stop();
    uploadArea.close();
  });

  await app.register(healthRoutes, { database, storage: files.storage, drain });
  await app.register(
    async (api) => {
      await api.register(catalogueRoutes, {
        db: database.db,
        institutionsMetBy: (userId) => institutionsMetBy(database.db, userId),
      });
      await api.register(waitlistRoutes, { db: database.db });
      await api.register(authRoutes, {
        db: database.db,
        auth,
        publicUrl: env.PUBLIC_URL,
        ipLimitMultiplier: env.RATE_LIMIT_MULTIPLIER,
        institutions: institutionRegistry,
      });
      await api.register(adminRoutes, { db: database.db, publicUrl: env.PUBLIC_URL, jobs });
      await api.register(partnerRoutes, { db: database.db });
      await api.register(institutionOnboardingRoutes, { db: database.db });
      await api.register(formsRoutes, { db: database.db });
      await api.register(programsRoutes, { db: database.db });
      await api.register(cyclesRoutes, { db: database.db });
      await api.register(teamRoutes, {
        db: database.db,
        auth,
        publicUrl: env.PUBLIC_URL,
        ipLimitMultiplier: env.RATE_LIMIT_MULTIPLIER,
      });
      await api.register(partnerSettingsRoutes, { db: database.db });
      await api.register(partnerApiRoutes, { db: database.db });
      await api.register(devMailboxRoutes, { db: database.db, enabled: mailboxEnabled(env) });
      await api.register(offerClockRoutes, { db: database.db, publicUrl: env.PUBLIC_URL, enabled: env.DEV_CLOCK });
      await api.register(documentsRoutes, { db: database.db, storage: files.storage });
      await api.register(uploadsRoutes, { db: database.db, files, area: uploadArea });
      await api.register(studentsRoutes, { db: database.db });
      await api.register(eligibilityRoutes, { db: database.db });
      await api.register(homeRoutes, { db: database.db });
      await api.register(geoRoutes, { geocoder: offlineGeocoder() });
      await api.register(supportRoutes, { db: database.db });
      await api.register(messagingRoutes, { db: database.db, hub, publicUrl: env.PUBLIC_URL });
      await api.register(chatsRoutes, { db: database.db });
      await api.register(applicationsRoutes, { db: database.db, publicUrl: env.PUBLIC_URL, storage: files.storage });
      await api.register(submissionsRoutes, { db: database.db, publicUrl: env.PUBLIC_URL });
      await api.register(refereesRoutes, {
        db: database.db,
        publicUrl: env.PUBLIC_URL,
        secret: env.AUTH_SECRET,
        storage: files.storage,
        ipLimitMultiplier: env.RATE_LIMIT_MULTIPLIER,
      });
      await api.register(paymentsRoutes, {
        db: database.db,
        env,
        jobs,
        ...(sandboxCallbacks?.deliver ? { deliver: sandboxCallbacks.deliver } : {}),
      });
      await api.register(financeRoutes, {
        db: database.db,
        storage: files.storage,
        publicUrl: env.PUBLIC_URL,
        refunding: refundingProvidersFrom(env, { db: database.db, log: app.log }),
        jobs,
      });
      await api.register(waiversRoutes, { db: database.db, storage: files.storage, publicUrl: env.PUBLIC_URL });
      await api.register(devPhoneRoutes, { simulators: paymentSimulators });
      await api.register(decisionsRoutes, {
        db: database.db,
        publicUrl: env.PUBLIC_URL,
        jobs,
        ipLimitMultiplier: env.RATE_LIMIT_MULTIPLIER,
      });
      await api.register(reviewRoutes, { db: database.db, storage: files.storage, publicUrl: env.PUBLIC_URL });
      await api.register(notificationsRoutes, {
        db: database.db,
        publicUrl: env.PUBLIC_URL,
        ipLimitMultiplier: env.RATE_LIMIT_MULTIPLIER,
      });
      await api.register(settingsRoutes, { db: database.db, auth, publicUrl: env.PUBLIC_URL });
      await api.register(accountDataRoutes, { db: database.db, storage: files.storage, publicUrl: env.PUBLIC_URL });
    },
    { prefix: '/api/v1' },
  );

  if (dist) {
    const live = await loadLivePages(dist.root, { catalogueSummary: () => catalogueSummary(database.db) });
    await app.register(webRoutes, { dist, live });
  }
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
