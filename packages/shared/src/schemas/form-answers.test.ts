import { describe, expect, it } from 'vitest';
import { ANSWER_MESSAGES as M } from '../messages.ts';
import { answersSchema, countWords, stripEmpty } from './form-answers.ts';
import type { FormSection, Question } from './forms.ts';

const base = { label: { en: 'Q' }, help: {}, required: false };
const questions: Question[] = [
  { ...base, id: 'name', order: 0, type: 'short_text', required: true },
  { ...base, id: 'essay', order: 1, type: 'long_text', word_limit: 3 },
  { ...base, id: 'gpa', order: 2, type: 'number', min: 0, max: 4 },
  { ...base, id: 'born', order: 3, type: 'date' },
  {
    ...base,
    id: 'heard',
    order: 4,
    type: 'single_choice',
    options: [
      { id: 'radio', label: { en: 'Radio' } },
      { id: 'friend', label: { en: 'A friend' } },
    ],
  },
  {
    ...base,
    id: 'langs',
    order: 5,
    type: 'multiple_choice',
    options: [
      { id: 'en', label: { en: 'English' } },
      { id: 'fr', label: { en: 'French' } },
    ],
  },
  { ...base, id: 'agree', order: 6, type: 'yes_no', required: true },
  { ...base, id: 'transcript', order: 7, type: 'file', document_type: 'transcript' },
  { ...base, id: 'country', order: 8, type: 'country' },
  { ...base, id: 'phone', order: 9, type: 'phone' },
];
const sections: FormSection[] = [{ id: 's1', order: 0, title: { en: 'S' }, description: {}, questions }];
const schema = answersSchema(sections);

/** The message of each refused question. */
function errorsOf(answers: Record<string, unknown>): Record<string, string> {
  const result = schema.safeParse(answers);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

const valid = { name: 'Aline', agree: true };

describe('answersSchema', () => {
  it('accepts good answers of every type and keeps them', () => {
    const answers = {
      ...valid,
      essay: 'one two three',
      gpa: 3.5,
      born: '2006-02-28',
      heard: 'radio',
      langs: ['en', 'fr'],
      transcript: '6f1c1f4e-0d8a-4c3e-9d55-0b7e6a1f2c3d',
      country: 'RW',
      phone: '+250 788 123 456',
    };
    expect(schema.parse(answers)).toEqual({ ...answers, phone: '+250788123456' });
  });

  it('enforces required questions, counting empty values as unanswered', () => {
    expect(errorsOf({})).toEqual({ name: M.required, agree: M.required });
    expect(errorsOf({ name: '   ', agree: true })).toEqual({ name: M.required });
    expect(errorsOf({ name: 'A', agree: false })).toEqual({});
  });

  it('drops empty optional answers and answers to unknown questions', () => {
    expect(schema.parse({ ...valid, essay: '', langs: [], other: 'x' })).toEqual(valid);
  });

  it.each([
    [{ name: 'x'.repeat(501) }, 'name', M.text_too_long],
    [{ essay: 'one two three four' }, 'essay', M.word_limit],
    [{ gpa: -1 }, 'gpa', M.number_too_small],
    [{ gpa: 5 }, 'gpa', M.number_too_large],
    [{ gpa: '3' }, 'gpa', M.number_invalid],
    [{ born: '2006-02-30' }, 'born', M.date_invalid],
    [{ heard: 'tv' }, 'heard', M.choice_invalid],
    [{ langs: ['en', 'de'] }, 'langs', M.choice_invalid],
    [{ agree: 'yes' }, 'agree', M.yes_no_invalid],
    [{ transcript: 'my-file.pdf' }, 'transcript', M.document_invalid],
    [{ country: 'XX' }, 'country', M.country_invalid],
    [{ phone: '0788123456' }, 'phone', M.phone_invalid],
  ])('refuses %o', (answer, question, message) => {
    expect(errorsOf({ ...valid, ...answer })).toEqual({ [question]: message });
  });
});

describe('stripEmpty', () => {
  it('removes empty strings, empty lists, null and undefined but keeps false and 0', () => {
    expect(stripEmpty({ a: '', b: ' ', c: [], d: null, e: undefined, f: false, g: 0, h: 'x' })).toEqual({
      f: false,
      g: 0,
      h: 'x',
    });
  });
});

describe('countWords', () => {
  it('counts runs of non-space characters', () => {
    expect(countWords('  ')).toBe(0);
    expect(countWords(' Hello,  wide\nworld ')).toBe(3);
  });
});
