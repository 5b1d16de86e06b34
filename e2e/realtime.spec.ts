import type { Page, WebSocketRoute } from '@playwright/test';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { signIn } from './institutions.ts';

const NOTICE = 'Real-time messaging may not work properly';

/**
 * The realtime socket, seen through Playwright: while `blocked`, every connection is refused as soon as
 * it opens (as when the server is unreachable); otherwise it is passed through to the real server.
 */
async function controlSocket(page: Page) {
  const control = { blocked: false, open: [] as WebSocketRoute[], received: [] as string[] };
  await page.routeWebSocket(/\/api\/v1\/realtime$/, (socket) => {
    if (control.blocked) {
      void socket.close({ code: 1011, reason: 'unreachable' });
      return;
    }
    const server = socket.connectToServer();
    // Passed on unchanged, and kept: the server's `ready` shows it accepted the session and the Origin.
    server.onMessage((message) => {
      control.received.push(String(message));
      socket.send(message);
    });
    control.open.push(socket);
  });
  return control;
}

test(
  'the student area says when real-time messaging is down, and recovers without a reload',
  { tag: '@desktop-only' },
  async ({ page }) => {
    // Sign-in, the delay before the notice and a backed-off retry add up to more than the default.
    test.setTimeout(60_000);
    const socket = await controlSocket(page);
    await signIn(page, 'demo.student@kaminuza.example', 'Kaminuza#2025');
    await expect(page).toHaveURL(/\/home$/);
    const status = page.getByRole('status').filter({ hasText: NOTICE });
    await expect.poll(() => socket.received).toContain(JSON.stringify({ type: 'ready' }));
    // Connected: nothing is said.
    await page.waitForTimeout(500);
    await expect(status).toHaveCount(0);

    // The connection drops and cannot be made again.
    socket.blocked = true;
    for (const open of socket.open.splice(0)) await open.close({ code: 1006, reason: 'dropped' });
    await expect(page.getByText(NOTICE)).toBeVisible({ timeout: 15_000 });
    await expectNoAxeViolations(page);

    // The server is reachable again: the next retry (backoff at most a few seconds here) reconnects.
    socket.blocked = false;
    socket.received.length = 0;
    await expect(page.getByText(NOTICE)).toBeHidden({ timeout: 20_000 });
    expect(socket.received).toContain(JSON.stringify({ type: 'ready' }));
  },
);

test('the socket refuses a page from another site', { tag: '@desktop-only' }, async ({ request }) => {
  const response = await request.get('/api/v1/realtime', {
    headers: {
      origin: 'https://evil.example',
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
    },
  });
  expect(response.status()).toBe(403);
});
