import { afterEach, describe, expect, it, vi } from 'vitest';
import { goToCheckout } from './checkout-url.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('goToCheckout', () => {
  it('stays in the app for our own /pay page', () => {
    const navigate = vi.fn();
    goToCheckout('/pay?reference=pay_0123456789', navigate);
    goToCheckout('/pay?reference=pay_9876543210', navigate, true);
    expect(navigate.mock.calls).toEqual([
      ['/pay?reference=pay_0123456789', undefined],
      ['/pay?reference=pay_9876543210', { replace: true }],
    ]);
  });

  it('loads a provider’s hosted page in full', () => {
    const location = { assign: vi.fn(), replace: vi.fn() };
    vi.stubGlobal('location', location);
    const navigate = vi.fn();
    goToCheckout('https://checkout.flutterwave.com/v3/hosted/pay/abc', navigate);
    goToCheckout('https://checkout.flutterwave.com/v3/hosted/pay/def', navigate, true);
    expect(navigate).not.toHaveBeenCalled();
    expect(location.assign).toHaveBeenCalledWith('https://checkout.flutterwave.com/v3/hosted/pay/abc');
    expect(location.replace).toHaveBeenCalledWith('https://checkout.flutterwave.com/v3/hosted/pay/def');
  });
});
