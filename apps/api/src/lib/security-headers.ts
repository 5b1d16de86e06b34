import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** A Content-Security-Policy, directive by directive (lib/csp.ts). */
type Directives = Record<string, string[]>;

/**
 * Helmet's security headers on every response: the site's Content-Security-Policy everywhere, the API
 * reference's relaxed one on its own pages. Each policy's middleware is built once, here: @fastify/helmet
 * rebuilt it (options checked, every header written out again) for each request, a fifth of what a
 * session read allocated (ADR 046).
 */
export function securityHeaders(
  app: FastifyInstance,
  policies: { site: Directives; docs: Directives; isDocs: (routeUrl: string) => boolean },
): void {
  const common = {
    hsts: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
  } satisfies HelmetOptions;
  const site = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: policies.site } });
  const docs = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: policies.docs } });
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.routeOptions.url;
    // Helmet throws rather than pass an error on (since 8.1), and only for options refused above.
    (url !== undefined && policies.isDocs(url) ? docs : site)(request.raw, reply.raw, () => done());
  });
}
