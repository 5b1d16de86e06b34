/**
 * Public page budget (ARCHITECTURE §7): compressed transfer ≤ 100 KB and Lighthouse mobile performance
 * ≥ 98; the entry pages (sign-up, sign-in, forgot and reset password, ADR 044) ≥ 95, their JavaScript
 * budget being bench/bundle.ts's. Measured with Lighthouse's default mobile emulation (slow 4G, 4× CPU) in Debian's Chromium.
 * Needs a build (`npm run build`). Usage: npm run bench:landing [-- /path …]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium.ts';
import { startServer, stopServer } from './server.ts';
import { ACCOUNT_PAGE_MODULES } from '../apps/web/src/account/page-modules.ts';

const BUDGET = { transferKb: 100, performance: 98 };
const ENTRY_BUDGET = { performance: 95 };
const ENTRY_PAGES: string[] = Object.keys(ACCOUNT_PAGE_MODULES);
const port = 4320;
const pages = process.argv.slice(2).filter((a) => a.startsWith('/'));
if (pages.length === 0) pages.push('/', '/about/us', '/help', ...ENTRY_PAGES);

const executable = chromiumPath();
if (!executable) throw new Error('Chromium not found: install it (apt-get install -y chromium) or set CHROMIUM_PATH');

const server = await startServer(port, {}, { bundle: true });
const chrome = await chromeLauncher.launch({ chromePath: executable, chromeFlags: CHROMIUM_ARGS });
const results: Array<{
  page: string;
  transferKb: number;
  performance: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}> = [];
try {
  for (const page of pages) {
    const runner = await lighthouse(`http://localhost:${port}${page}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    if (!runner) throw new Error(`Lighthouse returned nothing for ${page}`);
    const { audits, categories } = runner.lhr;
    results.push({
      page,
      transferKb: Math.round(((audits['total-byte-weight']?.numericValue ?? 0) / 1024) * 10) / 10,
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? 0),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
      cls: Math.round((audits['cumulative-layout-shift']?.numericValue ?? 0) * 1000) / 1000,
    });
  }
} finally {
  chrome.kill();
  await stopServer(server);
}

console.table(results);
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(
  new URL('./results/landing.json', import.meta.url),
  JSON.stringify({ budget: BUDGET, entryBudget: ENTRY_BUDGET, results }, null, 2),
);
const over = results.filter((r) =>
  ENTRY_PAGES.includes(r.page)
    ? r.performance < ENTRY_BUDGET.performance
    : r.transferKb > BUDGET.transferKb || r.performance < BUDGET.performance,
);
if (over.length > 0) {
  console.error(
    `over budget (public ≤ ${BUDGET.transferKb} KB and ≥ ${BUDGET.performance}; entry pages ≥ ${ENTRY_BUDGET.performance}): ${over.map((r) => r.page).join(', ')}`,
  );
  process.exitCode = 1;
}
