import { existsSync } from 'node:fs';

/** Debian's Chromium (or CHROMIUM_PATH): Playwright drives it instead of downloading its own browser. */
export function chromiumPath(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((path): path is string => !!path && existsSync(path)) ?? null;
}

/** Flags that keep Chromium quiet on a machine without outside network access. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
