import { and, eq, sql } from 'drizzle-orm';
import { applications, students, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';

/** The student account an application submitted on their behalf now belongs to. */
export interface ApplicantAccount {
  studentId: string;
  /** The account's own address and language, which the email telling them uses. */
  email: string;
  language: string;
}

/**
 * Makes an application staff submit for someone the student's own, when the email they typed is the
 * address of a verified student account (ADR 025): a submitted application is written for that student,
 * in the caller's transaction, so it appears in their applications and home like one they submitted.
 * Answers null, and writes nothing, when there is no such account, when it is not verified (an address
 * nobody proved to own must not pull an application into an account), or when the student already has an
 * application to this institution in this cycle (their own draft or submission is never replaced).
 */
export async function claimForApplicantAccount(
  tx: DbOrTx,
  input: {
    email: string;
    partnerId: string;
    cycleId: string;
    programId: string;
    campusId: string;
    formId: string;
    answers: Record<string, unknown>;
    progress: number;
  },
): Promise<{ applicationId: string; account: ApplicantAccount } | null> {
  const [account] = await tx
    .select({ studentId: students.id, email: users.email, language: students.language })
    .from(users)
    .innerJoin(students, eq(students.user_id, users.id))
    .where(
      and(
        sql`lower(${users.email}) = lower(${input.email})`,
        eq(users.type, 'student'),
        eq(users.contact_verified, true),
      ),
    )
    .limit(1);
  if (!account) return null;
  const [application] = await tx
    .insert(applications)
    .values({
      student_id: account.studentId,
      partner_id: input.partnerId,
      cycle_id: input.cycleId,
      program_id: input.programId,
      campus_id: input.campusId,
      form_id: input.formId,
      answers: input.answers,
      status: 'submitted',
      progress_percentage: input.progress,
      submitted_at: sql`now()`,
      last_saved_at: sql`now()`,
    })
    .onConflictDoNothing({ target: [applications.student_id, applications.partner_id, applications.cycle_id] })
    .returning({ id: applications.id });
  if (!application) return null;
  // As a submit does (spec section 4); last_activity stays the student's own.
  await tx
    .update(students)
    .set({ completed_applications: sql`array_append(${students.completed_applications}, ${application.id}::uuid)` })
    .where(eq(students.id, account.studentId));
  return { applicationId: application.id, account };
}
