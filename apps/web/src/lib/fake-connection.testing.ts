import { afterEach, beforeEach } from 'vitest';

/** What Chromium exposes as navigator.connection, with its `change` event. */
export class FakeConnection extends EventTarget {
  saveData = false;
  effectiveType = '4g';
  report(change: { saveData?: boolean; effectiveType?: string }) {
    Object.assign(this, change);
    this.dispatchEvent(new Event('change'));
  }
}

/**
 * For a test file: before each test, an empty localStorage and a fresh fast connection as
 * navigator.connection; after it, none. Answers the current test's connection.
 */
export function withFakeConnection(): () => FakeConnection {
  let connection = new FakeConnection();
  beforeEach(() => {
    localStorage.clear();
    connection = new FakeConnection();
    Object.defineProperty(navigator, 'connection', { configurable: true, value: connection });
  });
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'connection');
  });
  return () => connection;
}
