/**
 * Sends the browser to a checkout: our own /pay page within the app, or a provider's hosted page
 * (Flutterwave's, an absolute https address) by a full page load.
 */
export function goToCheckout(
  checkoutUrl: string,
  navigate: (path: string, options?: { replace?: boolean }) => unknown,
  replace = false,
) {
  if (/^https?:\/\//i.test(checkoutUrl)) {
    if (replace) window.location.replace(checkoutUrl);
    else window.location.assign(checkoutUrl);
    return;
  }
  void navigate(checkoutUrl, replace ? { replace } : undefined);
}
