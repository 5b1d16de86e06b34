import Bowser from 'bowser';

/** Empty strings where the header does not tell; templates then leave the device line out. */
export interface Device {
  operating_system: string;
  browser_name: string;
}

const MAX_LENGTH = 100;

const clean = (value: string | undefined) => value?.trim().slice(0, MAX_LENGTH) ?? '';

/**
 * The spec's emailData `operating_system` and `browser_name`, read from a User-Agent header, e.g.
 * `{ operating_system: 'Windows 10', browser_name: 'Chrome' }`; unknown parts are ''.
 */
export function deviceFromUserAgent(userAgent: string | undefined | null): Device {
  if (!userAgent?.trim()) return { operating_system: '', browser_name: '' };
  const { browser, os } = Bowser.parse(userAgent);
  const osName = clean(os.name);
  return {
    operating_system: osName && os.versionName ? `${osName} ${clean(os.versionName)}` : osName,
    browser_name: clean(browser.name),
  };
}
