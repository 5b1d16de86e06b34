import { Readable } from 'node:stream';
import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { ReviewQueryContext } from './review-context.ts';
import {
  type DecisionState,
  type ReviewQueuePage,
  type ReviewQueueQuery,
  type ReviewQueueRow,
  type SubmissionEligibility,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import type { DbOrTx } from '../../db/client.ts';
import { campuses, cycles, decisions, programs, staff, submissions } from '../../db/schema/index.ts';
import { containsPattern, foldedOnce } from '../../lib/text-search.ts';
import { csvLine } from '../../lib/csv.ts';
import { lettersColumns } from '../referees/index.ts';

/** The export answers at most this many rows: a whole cycle of a large institution, not an unbounded dump. */
export const CSV_MAX_ROWS = 100_000;
/** Rows read per query while the export streams. */
const CSV_BATCH = 2_000;

/**
 * A submission reference as typed: any case, with or without its dashes (`kz abcd efgh` finds
 * KZ-ABCD-EFGH). Null when the text cannot be one, so no reference lookup is made.
 */
export function referenceOf(text: string): string | null {
  const chars = text.toUpperCase().replace(/[^0-9A-Z]/g, '');
  const match = /^KZ([0-9A-Z]{4})([0-9A-Z]{4})$/.exec(chars);
  return match ? `KZ-${match[1]}-${match[2]}` : null;
}

/**
 * The WHERE of the queue and its export: the institution's submissions matching every filter. All of
 * it reads columns of `submissions` (indexed with the institution first), so the total is counted
 * without joins.
 */
export function queueWhere(context: ReviewQueryContext, query: ReviewQueueQuery): SQL {
  const filters: SQL[] = [eq(submissions.partner_id, context.partnerId)];
  if (query.cycle_id) filters.push(eq(submissions.cycle_id, query.cycle_id));
  if (query.program_id) filters.push(eq(submissions.program_id, query.program_id));
  if (query.campus_id) filters.push(eq(submissions.campus_id, query.campus_id));
  if (query.stage === 'new') filters.push(eq(submissions.status, 'submitted'));
  else if (query.stage === 'under_review') {
    filters.push(eq(submissions.status, 'under_review'), isNull(submissions.stage_id));
  } else if (query.stage === 'decided') {
    // A released decision sets the submission's status to its state.
    filters.push(inArray(submissions.status, ['accepted', 'rejected', 'waitlisted']));
  } else if (query.stage) filters.push(eq(submissions.stage_id, query.stage));

  // The submission's copy of its decision (kept by a trigger on `decisions`), read from the covering index.
  if (query.decision === 'none') {
    filters.push(isNull(submissions.decision_state));
    if (query.release) filters.push(sql`false`);
  } else {
    if (query.decision) filters.push(eq(submissions.decision_state, query.decision));
    else if (query.release) filters.push(isNotNull(submissions.decision_state));
    if (query.release) filters.push(eq(submissions.decision_released, query.release === 'released'));
  }

  if (query.paid !== undefined) filters.push(eq(submissions.paid, query.paid));
  if (query.submitted_by_staff !== undefined)
    filters.push(eq(submissions.submitted_by_staff, query.submitted_by_staff));
  // Days in the institution's time zone: from the start of the first to the end of the last.
  if (query.submitted_from) {
    filters.push(
      sql`${submissions.created_at} >= (${query.submitted_from}::date::timestamp at time zone ${context.timezone})`,
    );
  }
  if (query.submitted_to) {
    filters.push(
      sql`${submissions.created_at} < ((${query.submitted_to}::date + 1)::timestamp at time zone ${context.timezone})`,
    );
  }
  if (query.score_min !== undefined) filters.push(gte(submissions.score_average, query.score_min));
  if (query.score_max !== undefined) filters.push(lte(submissions.score_average, query.score_max));
  if (query.eligibility) filters.push(eq(submissions.eligibility_status, query.eligibility));
  if (query.assigned_to === 'none') filters.push(isNull(submissions.assigned_to));
  else if (query.assigned_to) {
    filters.push(eq(submissions.assigned_to, query.assigned_to === 'me' ? context.staffId : query.assigned_to));
  }

  const q = query.q?.trim();
  if (q) {
    const reference = referenceOf(q);
    const byReference = reference ? eq(submissions.reference, reference) : null;
    // Blind reviewers find applicants by reference only: a name search would tell them who applied.
    const byName = context.blind
      ? null
      : sql`${submissions.applicant_name_search} like ${foldedOnce(containsPattern(q))}`;
    const match = [byReference, byName].filter((part): part is SQL => part !== null);
    filters.push(match.length === 0 ? sql`false` : match.length === 1 ? match[0]! : sql`(${match[0]} or ${match[1]})`);
  }
  return and(...filters)!;
}

/** The queue's order: the sort asked for, then the id, so pages never repeat or skip a row. */
export function queueOrder(context: ReviewQueryContext, query: Pick<ReviewQueueQuery, 'sort' | 'order'>): SQL[] {
  const dir = query.order === 'asc' ? asc : desc;
  switch (query.sort) {
    case 'score':
      // Unscored applications come last whichever way scores are sorted, newest first among them.
      return [
        sql`${submissions.score_average} ${sql.raw(query.order)} nulls last`,
        desc(submissions.created_at),
        desc(submissions.id),
      ];
    case 'name':
      // Alphabetical, ignoring case and accents (Élodie with the Es). It would hint at names: blind
      // reviewers get the (random) reference order instead.
      return context.blind
        ? [dir(submissions.reference)]
        : [dir(submissions.applicant_name_search), dir(submissions.id)];
    case 'reference':
      return [dir(submissions.reference)];
    // Eligible first (desc), then by points within each; applications without either come last.
    case 'eligibility':
      return [
        sql`${submissions.eligibility_rank} ${sql.raw(query.order === 'desc' ? 'asc' : 'desc')} nulls last`,
        sql`${submissions.eligibility_points} ${sql.raw(query.order)} nulls last`,
        desc(submissions.created_at),
        desc(submissions.id),
      ];
    case 'points':
      return [
        sql`${submissions.eligibility_points} ${sql.raw(query.order)} nulls last`,
        desc(submissions.created_at),
        desc(submissions.id),
      ];
    default:
      return [dir(submissions.created_at), dir(submissions.id)];
  }
}

/*
 * The page's details: names are read by scalar subqueries rather than joins, which keeps the planning of
 * this statement (run on every page) to a few tables.
 */
const rowColumns = {
  id: submissions.id,
  reference: submissions.reference,
  applicant_name: submissions.applicant_name,
  program_name: sql<
    string | null
  >`(select ${programs.name} from ${programs} where ${programs.id} = ${submissions.program_id})`,
  campus_name: sql<
    string | null
  >`(select ${campuses.name} from ${campuses} where ${campuses.id} = ${submissions.campus_id})`,
  cycle_name: sql<string | null>`(select ${cycles.name} from ${cycles} where ${cycles.id} = ${submissions.cycle_id})`,
  submitted_at: submissions.created_at,
  status: submissions.status,
  stage_id: submissions.stage_id,
  paid: submissions.paid,
  fee_waived: submissions.fee_waived,
  submitted_by_staff: submissions.submitted_by_staff,
  score_average: submissions.score_average,
  score_count: submissions.score_count,
  assigned_id: submissions.assigned_to,
  assigned_name: sql<
    string | null
  >`(select ${staff.first_name} || ' ' || ${staff.last_name} from ${staff} where ${staff.id} = ${submissions.assigned_to})`,
  decision_state: decisions.state,
  decision_released_at: decisions.released_at,
  decision_automatic: decisions.automatic,
  eligibility: submissions.eligibility,
  ...lettersColumns(submissions.id),
};

/** The rows of these submissions of the institution, in the order of `ids`. */
async function rowsOf(db: Db, partnerId: string, ids: string[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(rowColumns)
    .from(submissions)
    .leftJoin(decisions, eq(decisions.submission_id, submissions.id))
    .where(and(eq(submissions.partner_id, partnerId), inArray(submissions.id, ids)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is Row => row !== undefined);
}

interface Row {
  id: string;
  reference: string;
  applicant_name: string;
  program_name: string | null;
  campus_name: string | null;
  cycle_name: string | null;
  submitted_at: string;
  status: ReviewQueueRow['status'];
  stage_id: string | null;
  paid: boolean;
  fee_waived: boolean;
  submitted_by_staff: boolean;
  score_average: number | null;
  score_count: number;
  assigned_id: string | null;
  assigned_name: string | null;
  decision_state: DecisionState | null;
  decision_released_at: string | null;
  decision_automatic: boolean | null;
  eligibility: SubmissionEligibility | null;
  letters_received: number;
  letters_invited: number;
}

function toQueueRow(row: Row, blind: boolean): ReviewQueueRow {
  return {
    id: row.id,
    reference: row.reference,
    applicant_name: blind ? null : row.applicant_name,
    program_name: row.program_name,
    campus_name: row.campus_name,
    cycle_name: row.cycle_name,
    submitted_at: new Date(row.submitted_at).toISOString(),
    status: row.status,
    stage_id: row.stage_id,
    paid: row.paid,
    waived: row.fee_waived,
    submitted_by_staff: row.submitted_by_staff,
    score_average: row.score_average,
    score_count: row.score_count,
    assigned_to: row.assigned_id ? { id: row.assigned_id, name: row.assigned_name ?? '' } : null,
    letters: row.letters_invited > 0 ? { received: row.letters_received, invited: row.letters_invited } : null,
    decision: row.decision_state
      ? {
          state: row.decision_state,
          released: row.decision_released_at !== null,
          automatic: row.decision_automatic ?? false,
        }
      : null,
    eligibility: row.eligibility
      ? {
          status: row.eligibility.status,
          exam: row.eligibility.exam,
          aggregate: row.eligibility.aggregate,
          points: row.eligibility.points,
        }
      : null,
  };
}

/**
 * Runs a queue statement without parallel workers. The queue is an interactive load — many reviewers'
 * small statements at once — where a parallel plan only adds the workers' start and a decisions hash
 * built once per worker, and takes cores other requests are waiting for.
 */
function withoutParallelWorkers<T>(db: Db, run: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    return run(tx);
  });
}

/** Whether anything narrows the queue beyond the institution. */
function narrowed(query: ReviewQueueQuery): boolean {
  const { sort: _sort, order: _order, page: _page, page_size: _size, ...filters } = query;
  return Object.values(filters).some((value) => value !== undefined && value !== '');
}

/**
 * The ids of one page. The queue's filters read only columns of the covering index
 * `submissions_review_queue_idx` (and `decisions` by submission), so the ids come from the index alone;
 * the details of the page's rows are read afterwards, for those rows only.
 *
 * Sorted by score, name or reference with a filter, the sort key is an expression no index orders by:
 * the matching rows are then read from the covering index and the page picked by a top-N sort, a cost
 * bounded by the institution's size, instead of walking the sort key's index and reading every row it
 * passes from the heap until enough match, which a rare filter makes a walk through the whole table.
 * Without a filter every row matches and the walk stops after one page. Sorting by score then walks the
 * score index twice — scored applications in the order asked, then the unscored ones, newest first —
 * since an index gives "nulls last" in one direction only; the scored ones are counted only when a page
 * reaches past them.
 */
async function pageIds(
  db: DbOrTx,
  context: ReviewQueryContext,
  query: ReviewQueueQuery,
  where: SQL,
): Promise<string[]> {
  const offset = (query.page - 1) * query.page_size;
  const ids = (condition: SQL, order: SQL[], limit: number, skip: number) =>
    db
      .select({ id: submissions.id })
      .from(submissions)
      .where(condition)
      .orderBy(...order)
      .limit(limit)
      .offset(skip)
      .then((rows) => rows.map((row) => row.id));
  if (query.sort === 'submitted_at') return ids(where, queueOrder(context, query), query.page_size, offset);
  // Eligibility and points: a top-N sort of the institution's rows read from the covering index.
  if (query.sort === 'eligibility' || query.sort === 'points')
    return ids(where, queueOrder(context, query), query.page_size, offset);

  const dir = sql.raw(query.order);
  if (narrowed(query)) {
    const key =
      query.sort === 'score'
        ? sql`${submissions.score_average} + 0`
        : query.sort === 'name' && !context.blind
          ? sql`${submissions.applicant_name_search} || ''`
          : sql`${submissions.reference} || ''`;
    const order =
      query.sort === 'score'
        ? [sql`${key} ${dir} nulls last`, desc(submissions.created_at), desc(submissions.id)]
        : [sql`${key} ${dir}`, sql`${submissions.id} ${dir}`];
    return ids(where, order, query.page_size, offset);
  }
  if (query.sort !== 'score') return ids(where, queueOrder(context, query), query.page_size, offset);

  const first = await ids(
    and(where, isNotNull(submissions.score_average))!,
    [sql`${submissions.score_average} ${dir}`, desc(submissions.created_at), desc(submissions.id)],
    query.page_size,
    offset,
  );
  if (first.length === query.page_size) return first;
  const scoredWhere = and(where, isNotNull(submissions.score_average))!;
  const [scored] = await db.select({ n: count() }).from(submissions).where(scoredWhere);
  const unscoredOffset = Math.max(0, offset - (scored?.n ?? 0));
  const rest = await ids(
    and(where, isNull(submissions.score_average))!,
    [desc(submissions.created_at), desc(submissions.id)],
    query.page_size - first.length,
    unscoredOffset,
  );
  return [...first, ...rest];
}

/**
 * One page of the institution's queue and the total matching. The total is counted while the page's ids
 * are read (on a server, side by side on two connections).
 */
export async function listQueue(
  db: Db,
  context: ReviewQueryContext,
  query: ReviewQueueQuery,
): Promise<ReviewQueuePage> {
  const where = queueWhere(context, query);
  // Both are awaited together from the start: were the count awaited only after the page, a failing page
  // (the database gone) would leave the count's failure unheard, an unhandled rejection.
  const [rows, [total]] = await Promise.all([
    withoutParallelWorkers(db, (tx) => pageIds(tx, context, query, where)).then((ids) =>
      rowsOf(db, context.partnerId, ids),
    ),
    withoutParallelWorkers(db, (tx) => tx.select({ n: count() }).from(submissions).where(where)),
  ]);
  return {
    items: rows.map((row) => toQueueRow(row, context.blind)),
    total: total?.n ?? 0,
    page: query.page,
    page_size: query.page_size,
  };
}

/* ---------------------------------------------------------------- CSV export */

const STATUS_LABELS: Record<ReviewQueueRow['status'], string> = {
  submitted: 'New',
  under_review: 'Under review',
  accepted: 'Accepted',
  rejected: 'Rejected',
  waitlisted: 'Waitlisted',
};

const ELIGIBILITY_LABELS: Record<SubmissionEligibility['status'], string> = {
  eligible: 'Eligible',
  needs_review: 'Needs review',
  not_eligible: 'Not eligible',
};

/**
 * The queue as CSV, every row matching the filters (at most CSV_MAX_ROWS) in the queue's order. The ids
 * are read in one statement, so the export lists the applications as they were at that instant; their
 * details follow in batches while the response streams, so memory stays flat however large it is.
 */
export async function exportQueueCsv(db: Db, context: ReviewQueryContext, query: ReviewQueueQuery): Promise<Readable> {
  const ids = (
    await db
      .select({ id: submissions.id })
      .from(submissions)
      .where(queueWhere(context, query))
      .orderBy(...queueOrder(context, query))
      .limit(CSV_MAX_ROWS)
  ).map((row) => row.id);
  const stages = new Map(context.stages.map((stage) => [stage.id, stage.name]));
  const header = [
    'Reference',
    ...(context.blind ? [] : ['Applicant']),
    'Program',
    'Campus',
    'Cycle',
    'Submitted at',
    'Status',
    'Stage',
    'Paid',
    'Submitted by staff',
    'Score',
    'Scores',
    'Assigned to',
    'Decision',
    'Decision released',
    'Eligibility',
    'Points',
    'Letters received',
    'Letters invited',
  ];

  async function* lines() {
    yield `\uFEFF${csvLine(header)}`;
    for (let start = 0; start < ids.length; start += CSV_BATCH) {
      const batch = ids.slice(start, start + CSV_BATCH);
      let chunk = '';
      for (const found of await rowsOf(db, context.partnerId, batch)) {
        const row = toQueueRow(found, context.blind);
        chunk += csvLine([
          row.reference,
          ...(context.blind ? [] : [row.applicant_name]),
          row.program_name,
          row.campus_name,
          row.cycle_name,
          row.submitted_at,
          STATUS_LABELS[row.status],
          row.stage_id ? (stages.get(row.stage_id) ?? row.stage_id) : '',
          row.paid ? 'yes' : 'no',
          row.submitted_by_staff ? 'yes' : 'no',
          row.score_average,
          row.score_count,
          row.assigned_to?.name ?? '',
          row.decision ? STATUS_LABELS[row.decision.state] : '',
          row.decision ? (row.decision.released ? 'yes' : 'no') : '',
          row.eligibility ? ELIGIBILITY_LABELS[row.eligibility.status] : '',
          row.eligibility?.points ?? '',
          row.letters?.received ?? '',
          row.letters?.invited ?? '',
        ]);
      }
      yield chunk;
    }
  }
  return Readable.from(lines());
}
