import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * Blocks cross-site state changes on the API (CSRF). Browsers send Sec-Fetch-Site and Origin on
 * POST/PUT/PATCH/DELETE; a request without either is not from a browser page and is let through.
 * The Origin may be the public URL or the host the request was sent to (e.g. a LAN address).
 */
export function sameOriginGuard(publicUrl: string) {
  const publicHost = new URL(publicUrl).host;
  return async function checkSameOrigin(request: FastifyRequest): Promise<void> {
    if (SAFE_METHODS.has(request.method)) return;
    const path = request.url;
    if (path !== '/api' && !path.startsWith('/api/') && !path.startsWith('/api?')) return;

    const denied = () => new AppError('PERMISSION_DENIED');
    if (request.headers['sec-fetch-site'] === 'cross-site') throw denied();
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const host = hostOf(origin);
    if (host === null || (host !== publicHost && host !== request.host)) throw denied();
  };
}
