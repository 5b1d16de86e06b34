import { describe, expect, it } from 'vitest';
import { ANSWER_MESSAGES, answersSchema, type FormSection } from '@kaminuza/shared';
import { answerIssues, firstIssue, sectionIssues } from './section-issues.ts';

const text = (en: string) => ({ en });

const SECTIONS: FormSection[] = [
  {
    id: 'about-you',
    order: 0,
    title: text('About you'),
    description: {},
    questions: [
      { id: 'full_name', order: 0, type: 'short_text', required: true, label: text('Your full name'), help: {} },
      { id: 'phone', order: 1, type: 'phone', required: false, label: text('Your phone number'), help: {} },
      { id: 'school_country', order: 2, type: 'country', required: true, label: text('School country'), help: {} },
    ],
  },
  {
    id: 'motivation',
    order: 1,
    title: text('Motivation'),
    description: {},
    questions: [
      { id: 'why', order: 0, type: 'long_text', word_limit: 5, required: true, label: text('Why?'), help: {} },
    ],
  },
];
const [ABOUT, MOTIVATION] = SECTIONS as [FormSection, FormSection];

describe('sectionIssues (what Next checks)', () => {
  it('stops an invalid phone with the message the server and the Review step give', () => {
    const answers = { full_name: 'Aline Uwase', phone: '12345', school_country: 'RW' };
    expect(sectionIssues(ABOUT, answers)).toEqual({ phone: ANSWER_MESSAGES.phone_invalid });
    expect(answerIssues(SECTIONS, answers)).toMatchObject({ phone: ANSWER_MESSAGES.phone_invalid });
  });

  it('lets the section through once the phone is fixed, spaces and all', () => {
    expect(sectionIssues(ABOUT, { full_name: 'Aline Uwase', phone: '+250 788 123 456', school_country: 'RW' })).toEqual(
      {},
    );
  });

  it('asks for required questions left empty, blank text counting as empty', () => {
    expect(sectionIssues(ABOUT, { full_name: '   ' })).toEqual({
      full_name: ANSWER_MESSAGES.required,
      school_country: ANSWER_MESSAGES.required,
    });
  });

  it('looks only at the section’s own questions: later sections wait for their own Next', () => {
    const answers = { full_name: 'Aline', school_country: 'RW', why: 'one two three four five six' };
    expect(sectionIssues(ABOUT, answers)).toEqual({});
    expect(sectionIssues(MOTIVATION, answers)).toEqual({ why: ANSWER_MESSAGES.word_limit });
  });

  it('refuses per section exactly what the submission refuses for the whole form', () => {
    const samples = [
      {},
      { full_name: 'A', phone: 'abc', school_country: 'XX', why: 'fine' },
      { full_name: 'Aline', phone: '+250788123456', school_country: 'KE', why: 'a b c d e f g' },
      { full_name: 'Aline', school_country: 'KE', why: 'Because.' },
    ];
    for (const answers of samples) {
      const perSection = Object.assign({}, ...SECTIONS.map((section) => sectionIssues(section, answers)));
      expect(perSection).toEqual(answerIssues(SECTIONS, answers));
      expect(Object.keys(perSection).length === 0).toBe(answersSchema(SECTIONS).safeParse(answers).success);
    }
  });
});

describe('firstIssue', () => {
  it('names the first question in the section’s order that has an issue, or none', () => {
    expect(firstIssue(ABOUT, { school_country: 'x', phone: 'y' })).toBe(1);
    expect(firstIssue(ABOUT, { school_country: 'x' })).toBe(2);
    expect(firstIssue(ABOUT, {})).toBeNull();
  });
});
