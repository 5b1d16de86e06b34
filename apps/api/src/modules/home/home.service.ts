import {
  LANGUAGES,
  missingCompletionFields,
  profileCompletion,
  type CompletionField,
  type HomeFixPlace,
  type HomeMissingItem,
  type HomeNextStep,
  type StudentHome,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { draftSteps } from './draft-steps.ts';
import { listDocuments } from '../documents/index.ts';
import { findStudent, readProfile } from '../students/index.ts';

/** The fields only the profile's Education tab asks for; every other one is asked by onboarding too. */
const EDUCATION_FIELDS: ReadonlySet<CompletionField> = new Set([
  'education_level',
  'school',
  'graduation_year',
  'exam_sittings',
]);
const AFTER_ONBOARDING: ReadonlySet<CompletionField> = new Set(['graduation_year', 'exam_sittings']);

function placeOf(field: CompletionField, onboarded: boolean): HomeFixPlace {
  if (!onboarded && !AFTER_ONBOARDING.has(field)) return 'onboarding';
  return EDUCATION_FIELDS.has(field) ? 'education' : 'personal';
}

/**
 * The signed-in student's home: their completion with what is missing (the rules of profileCompletion,
 * which also writes students.profile_completion), and their next steps in order. A handful of queries,
 * none per draft or document.
 */
export async function getStudentHome(db: Db, userId: string, now = new Date()): Promise<StudentHome> {
  const row = await findStudent(db, userId);
  const [profile, documents, drafts] = await Promise.all([
    readProfile(db, row),
    listDocuments(db, userId),
    draftSteps(db, row.id, now),
  ]);
  const onboarded = profile.is_complete;
  const notUploaded = documents.filter((document) => document.status === 'not_uploaded').map(({ type }) => type);
  const toReplace = documents.filter((document) => document.status === 'rejected').map(({ type }) => type);

  const missing: HomeMissingItem[] = [
    ...missingCompletionFields(profile).map((field): HomeMissingItem => ({
      kind: 'field',
      field,
      place: placeOf(field, onboarded),
    })),
    ...notUploaded.map((type): HomeMissingItem => ({ kind: 'document', type, place: 'documents' })),
  ];
  const uploads = documents.flatMap(({ type }) =>
    notUploaded.includes(type) || toReplace.includes(type) ? [type] : [],
  );
  const nextSteps: HomeNextStep[] = [
    ...(onboarded ? [] : [{ kind: 'onboarding' as const, step: profile.onboarding_step }]),
    ...(uploads.length > 0 ? [{ kind: 'documents' as const, types: uploads }] : []),
    ...drafts,
  ];
  return {
    first_name: row.first_name,
    preferred_name: row.preferred_name,
    timezone: row.timezone,
    language: LANGUAGES.find((language) => language === row.language) ?? 'en',
    completion: { percent: profileCompletion(profile, documents.length - notUploaded.length), missing },
    next_steps: nextSteps,
  };
}
