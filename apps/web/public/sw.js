/* global self, URL */
/*
 * Kaminuza's service worker: Web Push only (registered when someone turns push on in settings). It shows
 * each message the server pushes and opens its link on click. No caching, no fetch handler.
 */

self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
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
    const link = new URL(event.notification.data?.link || '/', self.location.origin);
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
