/** `?a=1&b=x` from the set values only: an empty search or "all statuses" is not sent at all. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Every admin query lives under this key: a decision changes counts, lists and the audit log at once. */
export const ADMIN_QUERY_KEY = ['admin'] as const;
