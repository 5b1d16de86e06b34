import { describe, expect, it } from 'vitest';
import { CACHED_AT_HEADER, isOfflineRead, opensAppShell, stampedCopy } from './offline-reads.ts';

const ORIGIN = 'https://kaminuza.example';
const at = (path: string, origin = ORIGIN) => new URL(path, origin);
const ID = '0b7c3f0e-8d1a-4f5e-9b2a-2c6d8e4f1a3b';

describe('reads kept for offline use', () => {
  it("keeps the applicant's own reads: session, applications, a draft, receipt, standing, decisions and letters", () => {
    for (const path of [
      '/api/v1/auth/session',
      '/api/v1/applications',
      `/api/v1/applications/${ID}`,
      `/api/v1/applications/${ID}/submission`,
      `/api/v1/partners/${ID}/application`,
      '/api/v1/decisions',
      `/api/v1/applications/${ID}/decision`,
      `/api/v1/applications/${ID}/decision/letter`,
    ]) {
      expect(isOfflineRead(at(path), ORIGIN), path).toBe(true);
    }
  });

  it('keeps nothing else: staff reads, uploads, notifications, other sites', () => {
    for (const path of [
      `/api/v1/partners/${ID}/review/submissions`,
      '/api/v1/uploads/abc',
      '/api/v1/notifications',
      '/api/v1/applications/extra/path/decision',
    ]) {
      expect(isOfflineRead(at(path), ORIGIN), path).toBe(false);
    }
    expect(isOfflineRead(at('/api/v1/applications', 'https://elsewhere.example'), ORIGIN)).toBe(false);
  });
});

describe('navigations answered with the app shell', () => {
  it('answers the signed-in areas, with or without a trailing slash', () => {
    for (const path of [
      '/home',
      '/application',
      '/application/submitted?partner=x',
      '/settings/',
      '/partner/reviews',
    ]) {
      expect(opensAppShell(at(path), ORIGIN), path).toBe(true);
    }
  });

  it('leaves public pages, the api and unknown addresses to the server', () => {
    for (const path of ['/', '/login', '/about/us', '/api/v1/applications', '/api', '/nowhere']) {
      expect(opensAppShell(at(path), ORIGIN), path).toBe(false);
    }
    expect(opensAppShell(at('/home', 'https://elsewhere.example'), ORIGIN)).toBe(false);
  });
});

describe('the stored copy', () => {
  it('is the same answer, stamped with when it was fetched', async () => {
    const fetched = new Response('{"data":[]}', { status: 200, headers: { 'content-type': 'application/json' } });
    const copy = await stampedCopy(fetched, new Date('2026-11-27T08:15:00.000Z'));
    expect(copy.status).toBe(200);
    expect(copy.headers.get('content-type')).toBe('application/json');
    expect(copy.headers.get(CACHED_AT_HEADER)).toBe('2026-11-27T08:15:00.000Z');
    expect(await copy.text()).toBe('{"data":[]}');
  });
});
