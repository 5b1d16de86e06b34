import { describe, expect, it } from 'vitest';
import { loggableUrl } from './logging.ts';

describe('loggableUrl', () => {
  it('keeps the secrets of emailed links out of the logs', () => {
    expect(loggableUrl('/signup/partner/invitation?token=abc123')).toBe('/signup/partner/invitation?token=redacted');
    expect(loggableUrl('/auth/verify-email?code=xyz&lang=fr')).toBe('/auth/verify-email?code=redacted&lang=fr');
    expect(loggableUrl('/reset-password?token=t&token=u')).toBe('/reset-password?token=redacted');
  });

  it('leaves other addresses as they are', () => {
    expect(loggableUrl('/api/v1/catalogue?q=kigali&page=2')).toBe('/api/v1/catalogue?q=kigali&page=2');
    expect(loggableUrl('/partners')).toBe('/partners');
  });
});
