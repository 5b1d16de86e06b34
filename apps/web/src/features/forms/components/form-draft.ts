import {
  profileFieldsFor,
  QuestionSchema,
  type ChoiceOption,
  type FormSection,
  type LocalizedText,
  type ProfileField,
  type Question,
  type QuestionType,
} from '@kaminuza/shared';

/*
 * The builder's edits of a form, as pure functions of its sections: every change makes new arrays, so
 * React sees it and the unsaved-changes check can compare with what was loaded.
 */

/** A new id for a section, question or option: short, random, and of the shape the schema asks. */
export function newItemId(prefix: 's' | 'q' | 'o'): string {
  return `${prefix}-${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`;
}

/** The array with the item at `from` moved to `to`. */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/** `order` follows the array, as the server stores it. */
export function withOrder(sections: readonly FormSection[]): FormSection[] {
  return sections.map((section, sectionIndex) => ({
    ...section,
    order: sectionIndex,
    questions: section.questions.map((question, index) => ({ ...question, order: index })),
  }));
}

export function newSection(title: LocalizedText): FormSection {
  return { id: newItemId('s'), order: 0, title, description: {}, questions: [] };
}

const twoOptions = (): ChoiceOption[] => [
  { id: newItemId('o'), label: {} },
  { id: newItemId('o'), label: {} },
];

/**
 * A question of `type` that keeps what the previous one had in common (id, texts, required, and the
 * profile detail it is prefilled from when the new type can hold it).
 */
export function questionOfType(type: QuestionType, previous?: Question): Question {
  const prefill = previous?.profile_field;
  const base = {
    id: previous?.id ?? newItemId('q'),
    order: previous?.order ?? 0,
    label: previous?.label ?? {},
    help: previous?.help ?? {},
    required: previous?.required ?? false,
    ...(prefill && profileFieldsFor(type).includes(prefill) ? { profile_field: prefill } : {}),
  };
  const options = previous && 'options' in previous ? previous.options : twoOptions();
  switch (type) {
    case 'long_text':
      return { ...base, type, word_limit: previous?.type === 'long_text' ? previous.word_limit : null };
    case 'number':
      return previous?.type === 'number'
        ? { ...base, type, min: previous.min, max: previous.max }
        : { ...base, type, min: null, max: null };
    case 'single_choice':
    case 'multiple_choice':
      return { ...base, type, options };
    case 'file':
      return { ...base, type, document_type: previous?.type === 'file' ? previous.document_type : 'transcript' };
    case 'referees':
      return previous?.type === 'referees'
        ? { ...previous, ...base, type }
        : { ...base, type, count: 2, kinds: ['teacher', 'counsellor'], submit_before_letters: true, prompts: [] };
    default:
      return { ...base, type };
  }
}

/** The question prefilled from `field`, or not prefilled at all (the key is left out, as the schema stores it). */
export function withProfileField(question: Question, field: ProfileField | null): Question {
  const { profile_field: _previous, ...rest } = question;
  return field ? { ...rest, profile_field: field } : rest;
}

/** The first problem of a question as the schema words it, by field (`label`, `options`, `word_limit` …). */
export function questionErrors(question: Question): Record<string, string> {
  const result = QuestionSchema.safeParse(question);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'label');
    errors[field] ??= issue.message;
  }
  return errors;
}
