/// <reference lib="webworker" />
/*
 * Kaminuza's service worker (ADR 039): keeps the app shell and the student screens on the device so the
 * app opens without a connection, keeps the applicant's own reads for offline reading, and shows the
 * Web Push messages the server sends. A new version waits until the person chooses to refresh.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { APP_SHELL_URL, READS_CACHE, isOfflineRead, opensAppShell, stampedCopy } from './lib/offline-reads.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// The signed-in areas are rendered in the browser: any of their addresses opens the same shell. Public
// pages (prerendered per language) and the api are never answered with it.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && opensAppShell(url, self.location.origin),
  createHandlerBoundToURL(APP_SHELL_URL),
);

/** Stamps what is stored with the time it was fetched, so a screen can say "as of" when it is served. */
const stampCachedAt: WorkboxPlugin = {
  cacheWillUpdate: ({ response }) => stampedCopy(response),
};

registerRoute(
  ({ url, request }) => request.method === 'GET' && isOfflineRead(url, self.location.origin),
  new NetworkFirst({
    cacheName: READS_CACHE,
    // On a connection that stalls, the stored answer after 4 s beats a spinner for a minute.
    networkTimeoutSeconds: 4,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      stampCachedAt,
      new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: 30 * 24 * 60 * 60 }),
    ],
  }),
);

self.addEventListener('message', (event) => {
  // Sent by the page only when the person presses Refresh on the update prompt.
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// The first version takes the open pages over at once; later ones wait for the person (see above).
clientsClaim();

interface PushMessage {
  title?: string;
  body?: string;
  id?: string;
  link?: unknown;
}

self.addEventListener('push', (event) => {
  let message: PushMessage = {};
  try {
    message = event.data ? (event.data.json() as PushMessage) : {};
  } catch {
    message = { title: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(message.title || 'Kaminuza', {
      body: message.body || '',
      tag: message.id || undefined,
      icon: '/favicon.svg',
      data: { link: typeof message.link === 'string' ? message.link : '/' },
    }),
  );
});

/** Opens the notification's page: focuses a tab already there, else opens one. Same-origin links only. */
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  let target = new URL('/', self.location.origin);
  try {
    const link = new URL((event.notification.data as { link?: string } | null)?.link || '/', self.location.origin);
    if (link.origin === self.location.origin) target = link;
  } catch {
    // A malformed link opens the home page.
  }
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const there = windows.find((client) => client.url === target.href);
      if (there) return there.focus();
      return self.clients.openWindow(target.href);
    })(),
  );
});
