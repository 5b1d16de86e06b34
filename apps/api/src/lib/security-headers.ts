import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** A Content-Security-Policy, directive by directive (lib/csp.ts). */
type Directives = Record<string, string[]>;

/**
 * The headers a helmet middleware writes. With static directives (no nonce, nothing read from the
 * request) they are the same for every response, so they are written out once.
 */
function headersOf(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Helmet's security headers on every response: the site's Content-Security-Policy everywhere, the API
 * reference's relaxed one on its own pages. Each policy is built once, here, and its headers written
 * out once: @fastify/helmet rebuilt it (options checked, every header written out again) for each
 * request, a fifth of what a session read allocated (ADR 046); helmet's own middleware still set each
 * header on the raw response one call at a time.
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
  // Helmet throws rather than pass an error on (since 8.1), and only for options refused here.
  const site = headersOf(
    helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: policies.site } }),
  );
  const docs = headersOf(
    helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: policies.docs } }),
  );
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.routeOptions.url;
    reply.headers(url !== undefined && policies.isDocs(url) ? docs : site);
    done();
  });
}
