/*
 * The payer's browser on Flutterwave's hosted page (the local simulator's): what the Flutterwave tests
 * drive, by plain HTTP as a browser would — the page, then its form posted, the redirect not followed.
 */

export interface HostedPayment {
  /** The HTTP status of the form's answer: 303 when it decided, 400 / 409 otherwise. */
  status: number;
  /** Where the browser is sent back to (the redirect_url with Flutterwave's query string). */
  location: URL | null;
}

/** Opens the hosted page of `link` and pays with `cardNumber`. */
export async function payOnHostedPage(
  link: string,
  cardNumber: string,
  { expiry = '09/32', cvc = '564' }: { expiry?: string; cvc?: string } = {},
): Promise<HostedPayment> {
  const page = await fetch(link);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no payment form on ${link} (${page.status})`);
  const response = await fetch(new URL(action, link), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card_number: cardNumber, expiry, cvc }).toString(),
    redirect: 'manual',
  });
  await response.body?.cancel();
  const location = response.headers.get('location');
  return { status: response.status, location: location ? new URL(location) : null };
}
