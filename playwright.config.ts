import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './e2e/chromium.ts';

const port = Number(process.env.E2E_PORT ?? 4310);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  // Two workers, their browsers and the server share CI's two cores: a step takes up to twice as long there.
  timeout: process.env.CI ? 60_000 : 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    /*
     * No test but the offline ones needs the service worker, and each new browser would otherwise download
     * the student screens' precache beside what it tests: e2e/pwa.spec.ts and the other offline specs allow it.
     */
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromiumPath() ?? undefined, args: CHROMIUM_ARGS },
  },
  /*
   * Every user path runs at both sizes. A test of logic rather than layout (a redirect, a refusal, a rule)
   * is tagged @desktop-only; of a screen's language variants, one runs at each size (@desktop-only,
   * @phone-only), so the longer French and Kinyarwanda texts are still seen at 360 px (ADR 017).
   */
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } }, grepInvert: /@phone-only/ },
    {
      name: 'mobile',
      use: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true },
      grepInvert: /@desktop-only/,
    },
  ],
  // The production server (built web app + api) on a fresh in-memory database, seeded with demo data.
  webServer: {
    command: 'node apps/api/dist/server.mjs',
    url: `${baseURL}/ready`,
    // Every browser of the suite signs up from 127.0.0.1: the per-address limits are raised to fit.
    env: {
      PORT: String(port),
      DATA_DIR: ':memory:',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: baseURL,
      RATE_LIMIT_MULTIPLIER: '10',
    },
    reuseExistingServer: false,
    timeout: 120_000,
  },
});
