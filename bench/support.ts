import pg from 'pg';

/** The p-th percentile of ascending times, in ms with two decimals. */
export function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 100) / 100;
}

/** Runs one statement on the server itself (CREATE/DROP DATABASE cannot run inside the bench's database). */
export async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  // A connection lost between calls fails the next call; unheard, its 'error' event would end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** p50, p95 and max of some times. */
export function summary(times: readonly number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: percentile(sorted, 100) };
}

/** A query as the address carries it; a list repeats its key. */
export function queryString(input: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  return params.toString();
}

/** The session cookie a sign-in answer sets, as a Cookie request header. */
export function sessionCookie(setCookie: string | string[] | undefined): string {
  return (Array.isArray(setCookie) ? setCookie : [setCookie ?? '']).map((c) => c.split(';')[0]).join('; ');
}

/**
 * Times a mix of queries `requests` times each way: through the service (after `warmup` passes), then as
 * api requests (session check included). Prints the matches and request times per query and the overall
 * figures under `label`; answers the overall figures and the per-query ones.
 */
export async function timeMix({
  mix,
  requests,
  warmup,
  service,
  request,
  label,
}: {
  mix: readonly object[];
  requests: number;
  warmup: number;
  /** Runs the mix's query at this index through the service. */
  service: (index: number) => Promise<{ total: number }>;
  /** Sends the query string as an api request. */
  request: (query: string) => Promise<{ statusCode: number; body: string }>;
  label: string;
}) {
  for (let i = 0; i < warmup; i++) await service(i % mix.length);
  const serviceTimes: number[] = [];
  const requestTimes: number[] = [];
  const totals = new Map<string, number>();
  const perQuery = new Map<string, number[]>();
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    const page = await service(i % mix.length);
    serviceTimes.push(performance.now() - start);
    totals.set(queryString(mix[i % mix.length]!) || '(none)', page.total);
  }
  for (let i = 0; i < requests; i++) {
    const query = queryString(mix[i % mix.length]!);
    const start = performance.now();
    const response = await request(query);
    const elapsed = performance.now() - start;
    requestTimes.push(elapsed);
    perQuery.set(query || '(none)', [...(perQuery.get(query || '(none)') ?? []), elapsed]);
    if (response.statusCode !== 200) throw new Error(`${query}: ${response.statusCode} ${response.body}`);
  }
  const byQuery = [...totals].map(([query, total]) => ({ query, total, ...summary(perQuery.get(query) ?? [0]) }));
  console.log('\nper query: matches and request times (ms):');
  console.table(byQuery);
  const results = { query: summary(serviceTimes), request: summary(requestTimes) };
  console.log(`\n${label}`);
  console.table(results);
  return { results, byQuery };
}
