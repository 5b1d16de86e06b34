/**
 * The deadline-day load, in a process of its own so that its CPU is not the server's (bench/deadline-day.ts
 * starts it, pinned to one core with taskset where there is one). It reads its plan from the file named
 * first, tells its parent over IPC when the measured window starts, and sends back what it measured.
 *
 * - `deadline`: the drafts keep autosaving (a think time between saves) and, a third of the way in, all
 *   submitters submit at once, every tenth with a double click; a second click told 409 while the first
 *   runs waits its Retry-After and asks again, as the web app does. Each request is one latency sample.
 * - `rate`: autosaves sent at a fixed rate whatever the answers (an open loop, so a slow server cannot slow
 *   the load down), each draft with at most one save in flight; finds whether a server holds that rate.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { readFile } from 'node:fs/promises';

export interface Draft {
  cookie: string;
  id: string;
  version: number;
}

interface Common {
  origin: string;
  /** Answers as they stand after each autosave step (index = step); the last one is submitted. */
  answers: Record<string, unknown>[];
}

export interface DeadlinePlan extends Common {
  mode: 'deadline';
  savers: Draft[];
  submitters: Draft[];
  durationMs: number;
  thinkMs: [number, number];
  doubleClickEvery: number;
}

export interface RatePlan extends Common {
  mode: 'rate';
  drafts: Draft[];
  rate: number;
  durationMs: number;
}

export type Plan = DeadlinePlan | RatePlan;

export interface Measured {
  /** CPU time of this process during the measured window, ms. */
  cpuMs: number;
  windowMs: number;
  autosave: number[];
  autosaveErrors: string[];
  submit: number[];
  submitErrors: string[];
  /** How many answers of each kind had each status code: 'PATCH 200', 'POST 409', … */
  statuses: Record<string, number>;
  inProgressRetries: number;
  /** Application id → the reference its acknowledgement carried. */
  acknowledged: [string, string][];
  /** The drafts' versions after the window, for the next plan. */
  versions: Record<string, number>;
  /** Rate mode: saves not sent because every draft still had one in flight. */
  skipped: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = ([low, high]: [number, number]) => low + Math.random() * (high - low);

// Sockets kept open between requests, as a browser keeps them: connection setup is not what is measured.
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function request(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = http.request(
      `${origin}${path}`,
      {
        method,
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

function newMeasured(): Measured {
  return {
    cpuMs: 0,
    windowMs: 0,
    autosave: [],
    autosaveErrors: [],
    submit: [],
    submitErrors: [],
    statuses: {},
    inProgressRetries: 0,
    acknowledged: [],
    versions: {},
    skipped: 0,
  };
}

function count(measured: Measured, kind: string) {
  measured.statuses[kind] = (measured.statuses[kind] ?? 0) + 1;
}

async function autosave(plan: Plan, draft: Draft, step: number, measured: Measured): Promise<void> {
  const started = performance.now();
  try {
    const response = await request(
      plan.origin,
      'PATCH',
      `/api/v1/applications/${draft.id}`,
      { cookie: draft.cookie, origin: plan.origin },
      JSON.stringify({
        version: draft.version,
        answers: plan.answers[Math.min(step, plan.answers.length - 2)],
        current_step: 0,
        current_section_index: step % 3,
      }),
    );
    measured.autosave.push(performance.now() - started);
    count(measured, `PATCH ${response.status}`);
    const body = JSON.parse(response.body) as { data?: { version: number } };
    if (response.status === 200 && body.data) draft.version = body.data.version;
    else measured.autosaveErrors.push(`${response.status} ${response.body.slice(0, 120)}`);
  } catch (error) {
    measured.autosave.push(performance.now() - started);
    measured.autosaveErrors.push((error as Error).message);
  }
}

async function deadline(plan: DeadlinePlan, measured: Measured): Promise<void> {
  const acknowledged = new Map<string, string>();
  const end = Date.now() + plan.durationMs;
  const saving = Promise.all(
    plan.savers.map(async (draft) => {
      let step = 0;
      await sleep(Math.random() * plan.thinkMs[1]);
      while (Date.now() < end) {
        step += 1;
        await autosave(plan, draft, step, measured);
        await sleep(between(plan.thinkMs));
      }
    }),
  );

  await sleep(plan.durationMs / 3);
  const submitting = Promise.all(
    plan.submitters.map(async (draft, index) => {
      const key = randomUUID();
      const body = JSON.stringify({ version: draft.version, answers: plan.answers[plan.answers.length - 1] });
      /** One request, timed on its own: a wait for Retry-After is the client's, not the server's. */
      const post = async () => {
        const started = performance.now();
        try {
          const response = await request(
            plan.origin,
            'POST',
            `/api/v1/applications/${draft.id}/submit`,
            { cookie: draft.cookie, origin: plan.origin, 'idempotency-key': key },
            body,
          );
          count(measured, `POST ${response.status}`);
          return response;
        } finally {
          measured.submit.push(performance.now() - started);
        }
      };
      const send = async () => {
        try {
          let response = await post();
          for (let retry = 0; response.status === 409 && response.headers['retry-after'] && retry < 5; retry++) {
            measured.inProgressRetries += 1;
            await sleep(Number(response.headers['retry-after']) * 1000);
            response = await post();
          }
          const parsed = JSON.parse(response.body) as { data?: { reference: string } };
          if ((response.status === 201 || response.status === 200) && parsed.data) {
            const earlier = acknowledged.get(draft.id);
            if (earlier && earlier !== parsed.data.reference)
              measured.submitErrors.push('two references for one application');
            acknowledged.set(draft.id, parsed.data.reference);
          } else measured.submitErrors.push(`${response.status} ${response.body.slice(0, 120)}`);
        } catch (error) {
          measured.submitErrors.push((error as Error).message);
        }
      };
      await Promise.all(index % plan.doubleClickEvery === 0 ? [send(), send()] : [send()]);
    }),
  );
  await Promise.all([saving, submitting]);
  measured.acknowledged = [...acknowledged];
}

async function atRate(plan: RatePlan, measured: Measured): Promise<void> {
  const free = [...plan.drafts];
  const pending = new Set<Promise<void>>();
  const start = performance.now();
  let sent = 0;
  let step = 0;
  while (performance.now() - start < plan.durationMs) {
    const due = Math.floor(((performance.now() - start) / 1000) * plan.rate);
    for (; sent < due; sent++) {
      const draft = free.shift();
      if (!draft) {
        measured.skipped += 1;
        continue;
      }
      step += 1;
      const saving = autosave(plan, draft, 1 + (step % (plan.answers.length - 2)), measured).then(() => {
        free.push(draft);
        pending.delete(saving);
      });
      pending.add(saving);
    }
    await sleep(2);
  }
  await Promise.all(pending);
}

const plan = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as Plan;
const measured = newMeasured();
const drafts = plan.mode === 'deadline' ? [...plan.savers, ...plan.submitters] : plan.drafts;
process.send?.({ type: 'start' });
const cpu = process.cpuUsage();
const started = performance.now();
if (plan.mode === 'deadline') await deadline(plan, measured);
else await atRate(plan, measured);
const used = process.cpuUsage(cpu);
measured.cpuMs = (used.user + used.system) / 1000;
measured.windowMs = performance.now() - started;
measured.versions = Object.fromEntries(drafts.map((draft) => [draft.id, draft.version]));
agent.destroy();
process.send?.({ type: 'done', measured }, () => process.disconnect());
