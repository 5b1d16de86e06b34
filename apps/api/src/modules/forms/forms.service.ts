import { and, asc, count, eq, inArray } from 'drizzle-orm';
import {
  SETUP_MESSAGES,
  type Form,
  type FormCreate,
  type FormDuplicate,
  type FormSection,
  type FormSnapshot,
  type FormSummary,
  type FormUpdate,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { forms, submissions } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import { assertCycleOfPartner } from '../partner-settings/index.ts';
import { assertProgramsOfPartner } from '../programs/index.ts';
import { DEFAULT_FORM_NAME, defaultFormSections, starterSections } from './default-form.ts';

type FormRow = typeof forms.$inferSelect;

const byOrder = <T extends { order: number }>(items: readonly T[]) => [...items].sort((a, b) => a.order - b.order);

/** Sections and questions as the reader expects them: in their order. */
function sorted(sections: readonly FormSection[]): FormSection[] {
  return byOrder(sections).map((section) => ({ ...section, questions: byOrder(section.questions) }));
}

/** The array order the builder sent is the order: `order` is rewritten to the index, so it never has gaps or ties. */
function normalised(sections: readonly FormSection[]): FormSection[] {
  return sections.map((section, sectionIndex) => ({
    ...section,
    order: sectionIndex,
    questions: section.questions.map((question, index) => ({ ...question, order: index })),
  }));
}

function toForm(row: FormRow, submissionCount: number): Form {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    cycle_id: row.cycle_id,
    program_id: row.program_id,
    sections: sorted(row.sections),
    version: row.version,
    submission_count: submissionCount,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** How many submissions answered each of these forms. */
async function submissionCounts(db: DbOrTx, partnerId: string, formIds: string[]): Promise<Map<string, number>> {
  if (formIds.length === 0) return new Map();
  const rows = await db
    .select({ form_id: submissions.form_id, total: count() })
    .from(submissions)
    .where(and(eq(submissions.partner_id, partnerId), inArray(submissions.form_id, formIds)))
    .groupBy(submissions.form_id);
  return new Map(rows.map((row) => [row.form_id ?? '', row.total]));
}

async function findForm(db: DbOrTx, partnerId: string, formId: string): Promise<FormRow> {
  const [row] = await db
    .select()
    .from(forms)
    .where(and(eq(forms.partner_id, partnerId), eq(forms.id, formId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', SETUP_MESSAGES.form_not_found);
  return row;
}

/** The cycle and program a form is attached to must be the institution's own (404 otherwise). */
async function assertLinksOfPartner(
  db: DbOrTx,
  partnerId: string,
  links: { cycle_id: string | null; program_id: string | null },
): Promise<void> {
  if (links.cycle_id) await assertCycleOfPartner(db, partnerId, links.cycle_id);
  if (links.program_id) await assertProgramsOfPartner(db, partnerId, [links.program_id]);
}

/** The institution's forms, by name. */
export async function listForms(db: Db, partnerId: string): Promise<FormSummary[]> {
  const rows = await db
    .select()
    .from(forms)
    .where(eq(forms.partner_id, partnerId))
    .orderBy(asc(forms.name), asc(forms.created_at), asc(forms.id));
  const counts = await submissionCounts(
    db,
    partnerId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const { sections, ...form } = toForm(row, counts.get(row.id) ?? 0);
    return {
      ...form,
      section_count: sections.length,
      question_count: sections.reduce((total, section) => total + section.questions.length, 0),
    };
  });
}

export async function getForm(db: DbOrTx, partnerId: string, formId: string): Promise<Form> {
  const row = await findForm(db, partnerId, formId);
  const counts = await submissionCounts(db, partnerId, [row.id]);
  return toForm(row, counts.get(row.id) ?? 0);
}

export async function createForm(db: Db, partnerId: string, input: FormCreate): Promise<Form> {
  return db.transaction(async (tx) => {
    await assertLinksOfPartner(tx, partnerId, input);
    const [row] = await tx
      .insert(forms)
      .values({
        partner_id: partnerId,
        name: input.name,
        description: input.description,
        cycle_id: input.cycle_id,
        program_id: input.program_id,
        sections: normalised(input.sections ?? starterSections()),
      })
      .returning();
    if (!row) throw new Error('the new form was not inserted');
    return toForm(row, 0);
  });
}

/**
 * Saves the whole form when nobody saved it since the editor loaded `version` (409 otherwise, and nothing
 * changes): the version check and the write are one guarded update, so two saves cannot both win.
 */
export async function updateForm(db: Db, partnerId: string, formId: string, input: FormUpdate): Promise<Form> {
  return db.transaction(async (tx) => {
    const current = await findForm(tx, partnerId, formId);
    await assertLinksOfPartner(tx, partnerId, input);
    const [row] = await tx
      .update(forms)
      .set({
        name: input.name,
        description: input.description,
        cycle_id: input.cycle_id,
        program_id: input.program_id,
        sections: normalised(input.sections),
        version: input.version + 1,
      })
      .where(and(eq(forms.partner_id, partnerId), eq(forms.id, current.id), eq(forms.version, input.version)))
      .returning();
    if (!row) throw new AppError('ABORTED', SETUP_MESSAGES.form_stale, undefined, { reason: 'form_stale' });
    const counts = await submissionCounts(tx, partnerId, [row.id]);
    return toForm(row, counts.get(row.id) ?? 0);
  });
}

/** A new form with the same questions, attachments and ids (answers of both read the same), at version 1. */
export async function duplicateForm(db: Db, partnerId: string, formId: string, input: FormDuplicate): Promise<Form> {
  return db.transaction(async (tx) => {
    const source = await findForm(tx, partnerId, formId);
    const [row] = await tx
      .insert(forms)
      .values({
        partner_id: partnerId,
        name: input.name,
        description: source.description,
        cycle_id: source.cycle_id,
        program_id: source.program_id,
        sections: normalised(sorted(source.sections)),
      })
      .returning();
    if (!row) throw new Error('the copied form was not inserted');
    return toForm(row, 0);
  });
}

/** Deletes a form no submission refers to; one that was answered is kept (409 in_use). */
export async function deleteForm(db: Db, partnerId: string, formId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const form = await findForm(tx, partnerId, formId);
    const counts = await submissionCounts(tx, partnerId, [form.id]);
    if ((counts.get(form.id) ?? 0) > 0) throw new AppError('ABORTED', SETUP_MESSAGES.in_use);
    await tx.delete(forms).where(and(eq(forms.partner_id, partnerId), eq(forms.id, form.id)));
  });
}

/** The form a new institution starts with (called in its sign-up transaction). */
export async function createDefaultForm(tx: DbOrTx, partnerId: string): Promise<void> {
  await tx.insert(forms).values({ partner_id: partnerId, name: DEFAULT_FORM_NAME, sections: defaultFormSections() });
}

/**
 * What a submission keeps of the form it answered (spec section 5): the form must exist, else
 * 'Form {id} not found'.
 */
export async function snapshotForm(db: DbOrTx, partnerId: string, formId: string): Promise<FormSnapshot> {
  const [row] = await db
    .select()
    .from(forms)
    .where(and(eq(forms.partner_id, partnerId), eq(forms.id, formId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', `Form ${formId} not found`);
  return formSnapshot(row);
}

/** What a submission keeps of a form row (read with other data in one query). */
export function formSnapshot(row: Pick<FormRow, 'id' | 'name' | 'version' | 'sections'>): FormSnapshot {
  return { id: row.id, name: row.name, version: row.version, sections: sorted(row.sections) };
}
