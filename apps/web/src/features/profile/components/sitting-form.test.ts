import { describe, expect, it } from 'vitest';
import { examSittingInputSchema, examSystem } from '@kaminuza/shared/exams';
import { emptySitting, formPathOf, sittingFormValues, subjectIdOf, toSittingInput } from './sitting-form.ts';

const wassce = examSystem('waec_wassce')!;

describe('the sitting form', () => {
  it('reads a typed subject by its name on the list, whatever the case and accents, else as another subject', () => {
    expect(subjectIdOf(wassce, '  english LANGUAGE ')).toBe('english_language');
    expect(subjectIdOf(wassce, 'Mathematics')).toBe('mathematics');
    expect(subjectIdOf(wassce, 'general mathematics')).toBe('mathematics');
    expect(subjectIdOf(wassce, 'further math')).toBe('further_mathematics');
    expect(subjectIdOf(wassce, 'Entrepreneurship')).toBe('other:Entrepreneurship');
    expect(subjectIdOf(wassce, '')).toBe('');
    const bac = examSystem('baccalaureat')!;
    const french = bac.subjects.find((subject) => subject.id === 'french')!;
    expect(subjectIdOf(bac, french.name.toUpperCase())).toBe('french');
  });

  it('sends the rows filled in, and maps an issue of a sent row back to the row on screen', () => {
    const values = {
      ...emptySitting(),
      exam: 'waec_wassce',
      year: '2024',
      other_name: 'ignored',
      results: [
        { subject: 'Mathematics', grade: 'C6' },
        { subject: '', grade: '' },
        { subject: 'Physics', grade: 'A' },
      ],
    };
    const input = toSittingInput(values, wassce);
    expect(input).toMatchObject({
      exam: 'waec_wassce',
      other_name: '',
      results: [
        { subject: 'mathematics', grade: 'C6' },
        { subject: 'physics', grade: 'A' },
      ],
    });
    const parsed = examSittingInputSchema(examSystem).safeParse(input);
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues[0]!;
    expect(formPathOf(issue.path.join('.'), values)).toBe('results.2.grade');
  });

  it('shows a stored sitting with its subjects by name', () => {
    const values = sittingFormValues(
      {
        id: '00000000-0000-4000-8000-000000000001',
        exam: 'waec_wassce',
        other_name: '',
        year: 2024,
        index_number: '4010',
        results: [{ subject: 'english_language', grade: 'B3' }],
        declared: null,
        overall: '',
        document_type: 'test_scores',
        verified: null,
      },
      wassce,
    );
    expect(values).toMatchObject({ year: '2024', results: [{ subject: 'English Language', grade: 'B3' }] });
    expect(values.document_type).toBe('test_scores');
  });
});
