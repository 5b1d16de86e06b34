import { describe, expect, it } from 'vitest';
import { ANSWER_MESSAGES, type FormSection } from '@kaminuza/shared';
import { answerErrorsOf, ApplicantFormSchema, checkAnswers, staffSections } from './on-behalf-form.ts';

const sections: FormSection[] = [
  {
    id: 'about',
    order: 0,
    title: { en: 'About you' },
    description: {},
    questions: [
      { id: 'name', order: 0, type: 'short_text', required: true, label: { en: 'Name' }, help: {} },
      {
        id: 'passport',
        order: 1,
        type: 'file',
        document_type: 'passport',
        required: true,
        label: { en: 'Passport' },
        help: {},
      },
    ],
  },
  {
    id: 'files',
    order: 1,
    title: { en: 'Documents' },
    description: {},
    questions: [
      {
        id: 'transcript',
        order: 0,
        type: 'file',
        document_type: 'transcript',
        required: true,
        label: { en: 'Transcript' },
        help: {},
      },
    ],
  },
];

describe('submitting for an applicant', () => {
  it('leaves out file questions and the sections they empty', () => {
    const staff = staffSections(sections);
    expect(staff.map((section) => section.id)).toEqual(['about']);
    expect(staff[0]?.questions.map((question) => question.id)).toEqual(['name']);
  });

  it('checks the answers staff give, stripped of empties, as the server does', () => {
    const staff = staffSections(sections);
    expect(checkAnswers(staff, { name: '  ' })).toEqual({ ok: false, errors: { name: ANSWER_MESSAGES.required } });
    expect(checkAnswers(staff, { name: 'Aline', unknown: 'x' })).toEqual({ ok: true, answers: { name: 'Aline' } });
  });

  it('places the server refusals of answers under their questions', () => {
    const details = [
      { path: 'answers.name', message: ANSWER_MESSAGES.required },
      { path: 'applicant.email', message: 'Invalid email address' },
      { path: 'why', message: ANSWER_MESSAGES.text_too_long },
    ];
    expect(answerErrorsOf(details, new Set(['name', 'why']))).toEqual({
      name: ANSWER_MESSAGES.required,
      why: ANSWER_MESSAGES.text_too_long,
    });
    expect(answerErrorsOf(undefined, new Set(['name']))).toEqual({});
  });

  it('reads empty optional applicant details as absent', () => {
    const parsed = ApplicantFormSchema.parse({
      first_name: 'Aline',
      last_name: 'Uwase',
      email: 'aline@example.com',
      phone: '',
      date_of_birth: '',
      nationality: '',
    });
    expect(parsed).toEqual({ first_name: 'Aline', last_name: 'Uwase', email: 'aline@example.com' });
    expect(ApplicantFormSchema.safeParse({ ...parsed, email: 'nope' }).success).toBe(false);
  });
});
