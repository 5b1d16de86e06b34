import type { ReviewApplication, ReviewDecision, ReviewOptions, StaffReferee } from '@kaminuza/shared';

/* Records as the review api answers them, for the review screens' tests. */

export const PARTNER = '00000000-0000-4000-8000-00000000000a';
export const ME = '00000000-0000-4000-8000-0000000000b1';
export const OTHER_REVIEWER = '00000000-0000-4000-8000-0000000000b2';
export const SUBMISSION = '00000000-0000-4000-8000-0000000000c1';
const stamp = '2026-03-02T09:30:00.000Z';

export function reviewOptions(overrides: Partial<ReviewOptions> = {}): ReviewOptions {
  return {
    cycles: [
      { id: '00000000-0000-4000-8000-0000000000d1', name: 'September intake', decision_release_on: '2026-07-01' },
    ],
    programs: [{ id: '00000000-0000-4000-8000-0000000000e1', name: 'Computer Science' }],
    campuses: [{ id: '00000000-0000-4000-8000-0000000000f1', name: 'Kigali' }],
    stages: [{ id: 'interview', name: 'Interview' }],
    reviewers: [
      { id: ME, name: 'Diane Uwase' },
      { id: OTHER_REVIEWER, name: 'Eric Mugisha' },
    ],
    rubric: [{ id: 'overall', name: 'Overall', weight: 1 }],
    blind: false,
    can_decide: true,
    me: ME,
    timezone: 'Africa/Kigali',
    ...overrides,
  };
}

export function decision(overrides: Partial<ReviewDecision> = {}): ReviewDecision {
  return {
    id: '00000000-0000-4000-8000-0000000000a9',
    state: 'accepted',
    automatic: false,
    decided_by: { id: ME, name: 'Diane Uwase' },
    release_at: null,
    released_at: null,
    response: null,
    response_date: null,
    verification_code: null,
    message: '',
    conditions: [],
    condition_views: [],
    conditions_status: null,
    conditions_decided_at: null,
    reply_by: null,
    reply_by_on: null,
    lapsed_at: null,
    waitlist_rank: null,
    proposed_at: null,
    deferral: null,
    updated_at: stamp,
    ...overrides,
  };
}

export function reviewApplication(overrides: Partial<ReviewApplication> = {}): ReviewApplication {
  return {
    id: SUBMISSION,
    reference: 'KMZ-2026-000123',
    status: 'under_review',
    stage_id: null,
    assigned_to: null,
    submitted_at: stamp,
    submitted_by_staff: false,
    cycle: { id: '00000000-0000-4000-8000-0000000000d1', name: 'September intake', decision_release_on: '2026-07-01' },
    program: { id: '00000000-0000-4000-8000-0000000000e1', name: 'Computer Science' },
    campus: { id: '00000000-0000-4000-8000-0000000000f1', name: 'Kigali' },
    applicant_name: 'Aline Mukamana',
    profile: { first_name: 'Aline', last_name: 'Mukamana' },
    form: null,
    answers: {},
    documents: [],
    payment: { paid: true, amount: 20, currency: 'USD', record: null },
    notes: [],
    scores: [],
    score_average: null,
    rubric: [
      { id: 'academics', name: 'Academic record', weight: 2 },
      { id: 'motivation', name: 'Motivation', weight: 1 },
    ],
    decision: null,
    places: null,
    history: [],
    blind: false,
    can_decide: true,
    ...overrides,
  };
}

/** A referee as staff read them: a teacher who sent a typed letter and a PDF, answering the form's one question. */
export function staffReferee(overrides: Partial<StaffReferee> = {}): StaffReferee {
  return {
    id: '00000000-0000-4000-8000-000000000091',
    question_id: 'references',
    kind: 'teacher',
    name: 'Grace Uwase',
    title: 'Mathematics teacher',
    organization: 'Lycée de Kigali',
    email: 'grace@school.example',
    phone: '+250788000111',
    waived: true,
    language: 'fr',
    status: 'submitted',
    expired: false,
    invited_at: '2026-02-20T08:00:00.000Z',
    opened_at: '2026-02-21T09:00:00.000Z',
    submitted_at: '2026-02-22T10:00:00.000Z',
    answers: [{ prompt: { en: 'How long have you known the applicant?' }, answer: 'Three years.' }],
    letter: { text: 'Aline is curious.\n\nShe works hard.', file_name: 'Lettre de Grace.pdf' },
    ...overrides,
  };
}
