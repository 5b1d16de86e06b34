import { describe, expect, it } from 'vitest';
import { FormItemIdSchema, SETUP_MESSAGES } from '@kaminuza/shared';
import { moved, newItemId, questionErrors, questionOfType, withOrder, withProfileField } from './form-draft.ts';

describe('form draft', () => {
  it('moves an item and leaves bad moves alone', () => {
    expect(moved(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b'], 0, 5)).toEqual(['a', 'b']);
  });

  it('makes ids the schema accepts', () => {
    for (const prefix of ['s', 'q', 'o'] as const)
      expect(FormItemIdSchema.safeParse(newItemId(prefix)).success).toBe(true);
  });

  it('renumbers order from the arrays', () => {
    const question = { ...questionOfType('yes_no'), order: 7 };
    const sections = withOrder([
      { id: 'b', order: 5, title: { en: 'B' }, description: {}, questions: [question] },
      { id: 'a', order: 2, title: { en: 'A' }, description: {}, questions: [] },
    ]);
    expect(sections.map((section) => section.order)).toEqual([0, 1]);
    expect(sections[0]?.questions[0]?.order).toBe(0);
  });

  it('keeps texts when the type changes and starts choices with two options', () => {
    const text = { ...questionOfType('short_text'), label: { en: 'Where?' }, required: true };
    const choice = questionOfType('single_choice', text);
    expect(choice).toMatchObject({ id: text.id, label: { en: 'Where?' }, required: true, type: 'single_choice' });
    expect('options' in choice && choice.options).toHaveLength(2);
  });

  it('words the problems of a question by field', () => {
    expect(questionErrors(questionOfType('single_choice'))).toMatchObject({
      label: SETUP_MESSAGES.question_label_required,
      options: SETUP_MESSAGES.question_label_required,
    });
    expect(questionErrors({ ...questionOfType('yes_no'), label: { fr: 'Oui ?' } })).toEqual({});
  });

  it('sets and clears the profile detail a question is prefilled from, leaving the key out when none', () => {
    const phone = withProfileField({ ...questionOfType('phone'), label: { en: 'Phone' } }, 'phone');
    expect(phone).toMatchObject({ profile_field: 'phone' });
    expect(questionErrors(phone)).toEqual({});
    expect('profile_field' in withProfileField(phone, null)).toBe(false);
  });

  it('keeps a prefill the new type can hold and drops one it cannot', () => {
    const phone = withProfileField(questionOfType('phone'), 'phone');
    expect(questionOfType('short_text', phone)).toMatchObject({ type: 'short_text', profile_field: 'phone' });
    expect('profile_field' in questionOfType('date', phone)).toBe(false);
    expect(
      'profile_field' in questionOfType('country', withProfileField(questionOfType('date'), 'date_of_birth')),
    ).toBe(false);
  });
});
