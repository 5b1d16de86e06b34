/**
 * Review queue budget (issue 8): on real PostgreSQL, one institution with 100,000 submissions spread over
 * cycles, programs, campuses, stages, scores, reviewers and decisions; a mix of realistic queue requests
 * (filters alone and combined, name and reference search, every sort, later pages) must answer within
 * p95 ≤ 50 ms. Prints p50/p95/max of the queue service alone and of the whole request (session check,
 * validation, page and total, serialization, timed inside the server by `app.inject`), then
 * EXPLAIN (ANALYZE, BUFFERS) of representative queries so the indexes used can be read.
 *
 * Needs a PostgreSQL server: DATABASE_URL=postgres://user@host:port/db npm run bench:review-queue
 * It creates a database of its own on that server and drops it at the end.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import {
  defaultPartnerSettings,
  ReviewQueueQuerySchema,
  type ReviewQueueQuery,
  type ReviewQueueQueryInput,
} from '@kaminuza/shared';
import { buildApp } from '../apps/api/src/app.ts';
import { openDatabase, type Db } from '../apps/api/src/db/client.ts';
import {
  campuses,
  cycles,
  forms,
  partnerSettings,
  partners,
  programs,
  staff,
} from '../apps/api/src/db/schema/index.ts';
import { seedDemoAdmissions } from '../apps/api/src/seed/admissions.ts';
import { parseEnv } from '../apps/api/src/lib/env.ts';
import { createVerifiedAccount } from '../apps/api/src/modules/auth/accounts.ts';
import { hashPassword } from '../apps/api/src/modules/auth/password.ts';
import { assertStaffAccess } from '../apps/api/src/modules/partners/partners.service.ts';
import { reviewContext, type ReviewQueryContext } from '../apps/api/src/modules/review/review-context.ts';
import { listQueue } from '../apps/api/src/modules/review/review-queue.ts';
import { onServer, sessionCookie, timeMix } from './support.ts';

const BUDGET_P95_MS = 50;
const SUBMISSIONS = 100_000;
const REQUESTS = 500;
const WARMUP = 50;
const STAGES = [
  { id: 'interview', name: 'Interview', order: 1 },
  { id: 'committee', name: 'Committee', order: 2 },
  { id: 'final_check', name: 'Final check', order: 3 },
];

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  console.error('bench:review-queue needs a PostgreSQL server: set DATABASE_URL=postgres://user@host:port/db');
  process.exit(2);
}

const name = `kz_bench_review_${randomBytes(4).toString('hex')}`;
await onServer(serverUrl, `CREATE DATABASE ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
const env = parseEnv({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000', WEB_DIST: '/nonexistent' });
const app = await buildApp({ database, env, logger: false });

/** The institution, its setup and its reviewers: what the generated submissions point at. */
async function seedInstitution(db: Db) {
  const [partner] = await db
    .insert(partners)
    .values({
      slug: `bench-review-${randomBytes(4).toString('hex')}`,
      name: 'Bench University',
      status: 'approved',
      published: true,
      address_city: 'Kigali',
      address_country: 'RW',
      institution_type: 'public',
      year_established: 2000,
      region: 'africa',
      size: 'large',
      setting: 'urban',
    })
    .returning({ id: partners.id });
  const partnerId = partner!.id;
  const settings = defaultPartnerSettings();
  await db.insert(partnerSettings).values({
    partner_id: partnerId,
    ...settings,
    admissions: { ...settings.admissions, custom_stages: STAGES },
  });
  await seedDemoAdmissions(db, partnerId);
  // More of each than the demo has: a large institution's several intakes, programs and campuses.
  await db.insert(cycles).values([
    { partner_id: partnerId, name: 'Intake 2024', opens_on: '2024-01-01', closes_on: '2024-06-30', status: 'closed' },
    { partner_id: partnerId, name: 'Intake 2025', opens_on: '2025-01-01', closes_on: '2025-06-30', status: 'closed' },
  ]);
  await db
    .insert(campuses)
    .values(['Huye', 'Rubavu'].map((city) => ({ partner_id: partnerId, name: `${city} campus`, city, country: 'RW' })));
  await db.insert(programs).values(
    Array.from({ length: 15 }, (_, i) => ({
      partner_id: partnerId,
      name: `Program ${i + 1}`,
      level: i % 3 === 0 ? ('graduate' as const) : ('undergraduate' as const),
      field: 'technology' as const,
      duration_months: 36,
      language: 'en',
    })),
  );

  const password = 'Bench#Passw0rd';
  const hash = await hashPassword(password);
  const reviewers: { id: string; email: string }[] = [];
  for (let i = 0; i < 8; i++) {
    const email = `reviewer-${i}-${randomBytes(3).toString('hex')}@bench.kaminuza.example`;
    const user = await createVerifiedAccount(db, {
      type: 'staff',
      email,
      passwordHash: hash,
      firstName: 'Reviewer',
      lastName: String(i + 1),
      partnerId,
      permissions: i === 0 ? ['all'] : ['review_applications'],
    });
    if (!user) throw new Error('bench reviewer not created');
    const [member] = await db.select({ id: staff.id }).from(staff).where(eq(staff.user_id, user.id));
    reviewers.push({ id: member!.id, email });
  }
  return { partnerId, reviewers, password };
}

/**
 * 100,000 submissions in one statement from generate_series: names drawn from common Rwandan, East
 * African and French names (accents included), a profile and answers of a real submission's size, the
 * demo form's snapshot, and every queue column spread the way a busy cycle leaves them.
 */
async function seedSubmissions(db: Db, partnerId: string, reviewerIds: string[]) {
  const cycleRows = await db.select({ id: cycles.id }).from(cycles).where(eq(cycles.partner_id, partnerId));
  const programRows = await db.select({ id: programs.id }).from(programs).where(eq(programs.partner_id, partnerId));
  const campusRows = await db.select({ id: campuses.id }).from(campuses).where(eq(campuses.partner_id, partnerId));
  const [form] = await db
    .select({ id: forms.id, name: forms.name, version: forms.version, sections: forms.sections })
    .from(forms)
    .where(eq(forms.partner_id, partnerId))
    .limit(1);
  const firstNames = [
    'Amina',
    'Jean',
    'Élodie',
    'Grace',
    'Eric',
    'Aline',
    'Patrick',
    'Divine',
    'Kevin',
    'Chantal',
    'Olivier',
    'Ange',
    'Claude',
    'Josiane',
    'Emmanuel',
    'Françoise',
    'David',
    'Clarisse',
    'Samuel',
    'Noëlla',
  ];
  const lastNames = [
    'Uwase',
    'Habimana',
    'Mukamana',
    'Niyonzima',
    'Ingabire',
    'Uwimana',
    'Nshimiyimana',
    'Mutesi',
    'Hakizimana',
    'Iradukunda',
    'Niyomugabo',
    'Uwera',
    'Kamanzi',
    'Mugisha',
    'Nkurunziza',
    'Bizimana',
    'Kagabo',
    'Umutoni',
    'Ndayisaba',
    'Twagirimana',
    'Okafor',
    'Mensah',
    'Kamau',
    'Otieno',
    'Diallo',
    'Traoré',
    'Ndiaye',
    'Mwangi',
    'Achieng',
    'Banda',
  ];
  const arr = (values: string[]) => sql`${sql.param(values)}::text[]`;
  const uuids = (values: string[]) => sql`${sql.param(values)}::uuid[]`;
  await db.execute(sql`
    insert into submissions (reference, partner_id, cycle_id, program_id, campus_id, form_id, form_snapshot,
      profile, answers, status, paid, amount, currency, submitted_by_staff, stage_id, assigned_to,
      score_average, score_count, created_at, updated_at)
    select
      'KZ-' || substr(h, 1, 4) || '-' || substr(h, 5, 4),
      ${partnerId}, c, p, k, ${form!.id}, ${JSON.stringify(form)}::jsonb,
      jsonb_build_object('first_name', fn, 'last_name', ln, 'email', lower(ln) || i || '@example.com',
        'phone', '+2507' || lpad((i % 100000000)::text, 8, '0'), 'date_of_birth', '2006-05-14', 'gender', 'female',
        'nationality', 'RW', 'country_of_residence', 'RW', 'address', 'KN ' || (i % 300) || ' St', 'city', 'Kigali',
        'country', 'RW', 'postal_code', '00000', 'education_level', 'secondary', 'last_school', 'Lycée de Kigali',
        'graduation_year', 2024, 'gpa', '3.6', 'major', 'Sciences', 'degree_type', 'A-level',
        'documents', jsonb_build_array(
          jsonb_build_object('type', 'transcript', 'document_id', gen_random_uuid(), 'file_id', gen_random_uuid(),
            'file_name', 'transcript.pdf', 'status', 'pending'),
          jsonb_build_object('type', 'passport', 'document_id', gen_random_uuid(), 'file_id', gen_random_uuid(),
            'file_name', 'passport.pdf', 'status', 'pending'))),
      jsonb_build_object('why_programme', repeat('I want to study here because it matters to my community. ', 6),
        'grade_average', 60 + i % 40, 'completed_on', '2024-06-30', 'school_country', 'RW', 'accommodation', i % 2 = 0,
        'emergency_name', 'Jane Doe', 'emergency_phone', '+250788123456', 'accurate', true),
      status, i % 5 <> 0, case when i % 5 <> 0 then 50 else 0 end, 'USD', i % 20 = 0,
      case when status = 'under_review' and i % 2 = 0 then (${arr(STAGES.map((stage) => stage.id))})[1 + i % 3] end,
      case when i % 5 < 3 and status <> 'submitted' then (${uuids(reviewerIds)})[1 + i % ${reviewerIds.length}] end,
      case when status <> 'submitted' and i % 10 < 7 then round((random() * 100)::numeric, 2) end,
      case when status <> 'submitted' and i % 10 < 7 then 1 + i % 3 else 0 end,
      at, at
    from (
      select i,
        upper(lpad(to_hex((i::bigint * 2654435761) % 4294967296), 8, '0')) as h,
        (${arr(firstNames)})[1 + (i * 7) % ${firstNames.length}] as fn,
        (${arr(lastNames)})[1 + (i * 13) % ${lastNames.length}] as ln,
        (${uuids(cycleRows.map((row) => row.id))})[1 + i % ${cycleRows.length}] as c,
        (${uuids(programRows.map((row) => row.id))})[1 + (i / 3) % ${programRows.length}] as p,
        (${uuids(campusRows.map((row) => row.id))})[1 + (i / 7) % ${campusRows.length}] as k,
        case when i % 10 < 3 then 'submitted' when i % 10 < 8 then 'under_review'
             else (array['accepted', 'rejected', 'waitlisted'])[1 + i % 3] end as status,
        now() - make_interval(mins => i * 7) as at
      from generate_series(1, ${SUBMISSIONS}) as i
    ) as g`);
  // Released decisions for the decided, drafts (automatic and by a member) for a tenth of those in review.
  await db.execute(sql`
    insert into decisions (submission_id, partner_id, state, program_name, university_name, released_at, automatic,
      decided_by, created_at, updated_at)
    select s.id, s.partner_id, s.status, 'Program', 'Bench University', s.created_at + interval '30 days', false,
      ${reviewerIds[0]}, s.created_at, s.created_at
    from submissions s where s.partner_id = ${partnerId} and s.status in ('accepted', 'rejected', 'waitlisted')`);
  await db.execute(sql`
    insert into decisions (submission_id, partner_id, state, program_name, university_name, automatic, decided_by)
    select s.id, s.partner_id, case when s.score_average >= 50 then 'accepted' else 'rejected' end, 'Program',
      'Bench University', s.score_average >= 90 or s.score_average <= 30,
      case when s.score_average < 90 and s.score_average > 30 then ${reviewerIds[0]}::uuid end
    from submissions s
    where s.partner_id = ${partnerId} and s.status = 'under_review' and s.score_average is not null
      and hashtext(s.id::text) % 4 = 0`);
}

try {
  await database.migrate();
  const seedStart = performance.now();
  const { partnerId, reviewers, password } = await seedInstitution(database.db);
  await seedSubmissions(
    database.db,
    partnerId,
    reviewers.map((reviewer) => reviewer.id),
  );
  const [{ count: decisionCount } = { count: 0 }] = (
    await database.db.execute<{ count: number }>(sql`select count(*)::int as count from decisions`)
  ).rows;
  console.log(
    `seeded ${SUBMISSIONS} submissions and ${decisionCount} decisions in ${Math.round(performance.now() - seedStart)} ms`,
  );
  // Steady state: statistics and the visibility map that autovacuum would keep (index-only counts need it).
  let visibility: { relpages: number; relallvisible: number } | undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    await database.db.execute(sql`vacuum analyze submissions`);
    await database.db.execute(sql`vacuum analyze decisions`);
    [visibility] = (
      await database.db.execute<{ relpages: number; relallvisible: number }>(
        sql`select relpages, relallvisible from pg_class where relname = 'submissions'`,
      )
    ).rows;
    if (visibility && visibility.relallvisible >= visibility.relpages) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  console.log(`submissions: ${visibility?.relallvisible} of ${visibility?.relpages} pages all-visible`);
  const [sizes] = (
    await database.db.execute<{ table: string; indexes: string }>(
      sql`select pg_size_pretty(pg_table_size('submissions')) as table, pg_size_pretty(pg_indexes_size('submissions')) as indexes`,
    )
  ).rows;
  console.log(`submissions: table ${sizes?.table}, indexes ${sizes?.indexes}`);
  const load = os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  console.log(`machine: ${os.cpus().length} CPUs, load average ${load} (timings include waiting for a CPU)`);

  const lead = reviewers[0]!;
  const [leadUser] = await database.db.select({ user_id: staff.user_id }).from(staff).where(eq(staff.id, lead.id));
  const caller = await assertStaffAccess(database.db, leadUser!.user_id, partnerId, null);
  const context: ReviewQueryContext = await reviewContext(database.db, caller);
  const signIn = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/sign-in',
    payload: { email: lead.email, password },
  });
  if (signIn.statusCode !== 200) throw new Error(`sign-in failed: ${signIn.body}`);
  const setCookie = signIn.headers['set-cookie'];
  const cookie = sessionCookie(setCookie);

  const [sample] = (
    await database.db.execute<{ reference: string; cycle_id: string; program_id: string; campus_id: string }>(
      sql`select reference, cycle_id, program_id, campus_id from submissions where partner_id = ${partnerId}
          order by created_at desc offset 5000 limit 1`,
    )
  ).rows;
  const other = reviewers[3]!.id;
  /** What reviewers click: the default view, every filter alone, the usual combinations, searches, sorts, pages. */
  const MIX: ReviewQueueQueryInput[] = [
    {},
    { page: 2 },
    { page: 40, page_size: 50 },
    { sort: 'score', order: 'desc' },
    { sort: 'score', order: 'asc', page: 3 },
    { sort: 'name', order: 'asc' },
    { sort: 'reference', order: 'asc' },
    { q: 'uwase' },
    { q: 'elodie muka' },
    { q: 'Niyonz', sort: 'name', order: 'asc' },
    { q: sample!.reference.toLowerCase() },
    { cycle_id: sample!.cycle_id },
    { program_id: sample!.program_id },
    { campus_id: sample!.campus_id },
    { stage: 'new' },
    { stage: 'under_review' },
    { stage: 'interview' },
    { stage: 'decided' },
    { decision: 'accepted' },
    { decision: 'none' },
    { release: 'draft' },
    { decision: 'waitlisted', release: 'released' },
    { paid: 'false' },
    { submitted_by_staff: 'true' },
    { submitted_from: '2025-03-01', submitted_to: '2025-03-31' },
    { score_min: 80 },
    { score_min: 40, score_max: 60, sort: 'score', order: 'desc' },
    { assigned_to: 'me' },
    { assigned_to: 'none', stage: 'under_review' },
    { assigned_to: other, decision: 'none' },
    { cycle_id: sample!.cycle_id, program_id: sample!.program_id, sort: 'score', order: 'desc' },
    { cycle_id: sample!.cycle_id, stage: 'committee', paid: 'true' },
    { decision: 'none', paid: 'true', score_min: 70, sort: 'score', order: 'desc' },
    { program_id: sample!.program_id, campus_id: sample!.campus_id, stage: 'new', sort: 'name', order: 'asc' },
    { q: 'grace', cycle_id: sample!.cycle_id },
  ];
  const parsed = MIX.map((input) => ReviewQueueQuerySchema.parse(input));

  const { results, byQuery } = await timeMix({
    mix: MIX,
    requests: REQUESTS,
    warmup: WARMUP,
    service: (index) => listQueue(database.db, context, parsed[index]!),
    request: (query) =>
      app.inject({ url: `/api/v1/partners/${partnerId}/review/submissions?${query}`, headers: { cookie } }),
    label: `${REQUESTS} queue pages each, ${SUBMISSIONS} submissions of one institution, times in ms:`,
  });

  const explained: Record<string, string> = {};
  const client = new pg.Client({ connectionString: url.toString() });
  // A connection lost between calls fails the next call; unheard, its 'error' event would end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const representative: Array<[string, ReviewQueueQueryInput]> = [
      ['default view (newest first)', {}],
      ['name search', { q: 'uwase' }],
      [
        'decision filter with paid and score, by score',
        { decision: 'none', paid: 'true', score_min: 70, sort: 'score', order: 'desc' },
      ],
      [
        'cycle and program, by score',
        { cycle_id: sample!.cycle_id, program_id: sample!.program_id, sort: 'score', order: 'desc' },
      ],
      ['custom stage, assigned to me', { stage: 'interview', assigned_to: 'me' }],
    ];
    for (const [label, input] of representative) {
      // The reads only: each runs in a transaction of its own (begin, set local …, commit).
      const statements = (await captureSql(client, context, ReviewQueueQuerySchema.parse(input))).filter((statement) =>
        statement.sql.startsWith('select'),
      );
      for (const [i, statement] of statements.entries()) {
        const kind = statement.sql.startsWith('select count')
          ? 'total'
          : statement.sql.includes('"decisions"."state"')
            ? 'page rows'
            : 'page ids';
        const part = `${label} — statement ${i + 1} of ${statements.length}: ${kind}`;
        // As the queue runs them: without parallel workers.
        await client.query('set max_parallel_workers_per_gather = 0');
        const { rows } = await client.query(`explain (analyze, buffers) ${statement.sql}`, statement.params);
        explained[part] = rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
        console.log(`\nEXPLAIN (ANALYZE, BUFFERS) — ${part}\n${explained[part]}`);
      }
    }
  } finally {
    await client.end();
  }

  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(
    new URL('./results/review-queue.json', import.meta.url),
    JSON.stringify(
      {
        budget: { p95_ms: BUDGET_P95_MS },
        submissions: SUBMISSIONS,
        requests: REQUESTS,
        results,
        per_query: Object.fromEntries(byQuery.map(({ query, ...figures }) => [query, figures])),
      },
      null,
      2,
    ),
  );
  if (results.request.p95 > BUDGET_P95_MS) {
    console.error(`over budget: request p95 ${results.request.p95} ms > ${BUDGET_P95_MS} ms`);
    process.exitCode = 1;
  } else {
    console.log(`within budget: request p95 ${results.request.p95} ms ≤ ${BUDGET_P95_MS} ms`);
  }
} finally {
  await app.close();
  await database.close();
  await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/**
 * The exact statements and parameters `listQueue` sends for a query (the page and the total), recorded
 * on their way to the real database so the flow is the real one.
 */
async function captureSql(client: pg.Client, context: ReviewQueryContext, query: ReviewQueueQuery) {
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const schema = await import('../apps/api/src/db/schema/index.ts');
  const captured: { sql: string; params: unknown[] }[] = [];
  const recorder = {
    query: (config: string | { text: string; values?: unknown[] }, values?: unknown[]) => {
      if (typeof config === 'string') captured.push({ sql: config, params: values ?? [] });
      else captured.push({ sql: config.text, params: config.values ?? values ?? [] });
      return client.query(config as never, values as never);
    },
  };
  const db = drizzle({ client: recorder as never, schema, casing: 'snake_case' });
  await listQueue(db as never, context, query);
  return captured;
}
