import { asc, desc, eq } from 'drizzle-orm';
import type { ExamSitting } from '@kaminuza/shared';
import type { DbOrTx } from '../../db/client.ts';
import { examSittings, partners } from '../../db/schema/index.ts';

type SittingRow = typeof examSittings.$inferSelect;

function toSitting(row: SittingRow, verifier: string | null): ExamSitting {
  return {
    id: row.id,
    exam: row.exam,
    other_name: row.other_name,
    year: row.year,
    index_number: row.index_number,
    results: row.results,
    declared: row.declared,
    overall: row.overall,
    document_type: row.document_type,
    verified: row.verified_at ? { at: row.verified_at, by: verifier ?? '' } : null,
  };
}

/** A student's sittings, latest first (the order the profile, the review and eligibility read them in). */
export async function sittingsOf(db: DbOrTx, studentId: string): Promise<ExamSitting[]> {
  const rows = await db
    .select({ row: examSittings, verifier: partners.name })
    .from(examSittings)
    .leftJoin(partners, eq(partners.id, examSittings.verified_by_partner))
    .where(eq(examSittings.student_id, studentId))
    .orderBy(desc(examSittings.year), asc(examSittings.created_at), asc(examSittings.id));
  return rows.map(({ row, verifier }) => toSitting(row, verifier));
}
