import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { ReviewEvent } from '@kaminuza/shared';
import { OTHER_REVIEWER, reviewApplication } from './review-fixtures.ts';
import { HistoryPanel } from './history-panel.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const STAGES = [{ id: 'interview', name: 'Interview' }];
const DOCUMENT = '00000000-0000-4000-8000-0000000000d9';

let minute = 0;
/** One history line as the api answers it (review.service.ts reviewApplication). */
function event(action: ReviewEvent['action'], details: Record<string, unknown>, actor?: ReviewEvent['actor']) {
  minute += 1;
  return {
    id: `00000000-0000-4000-8000-${String(minute).padStart(12, '0')}`,
    action,
    actor: actor ?? { kind: 'staff' as const, name: 'Diane Uwase' },
    details,
    created_at: `2026-03-03T10:${String(minute).padStart(2, '0')}:00.000Z`,
  };
}

function renderHistory(history: ReviewEvent[]) {
  render(
    <I18nextProvider i18n={i18n}>
      <HistoryPanel application={reviewApplication({ history })} stages={STAGES} />
    </I18nextProvider>,
  );
  // Newest first: the lines in the order the reader meets them.
  return within(screen.getByRole('list', { name: 'History of the application' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);
}

afterEach(cleanup);

describe('the history of an application', () => {
  it('says who a reviewer was assigned to, and when nobody is any more', () => {
    const lines = renderHistory([
      event('assigned', { from: null, to: OTHER_REVIEWER, to_name: 'Jean Habimana', from_name: null }),
      event('assigned', { from: OTHER_REVIEWER, to: null, from_name: 'Jean Habimana', to_name: null }),
      // A member since removed from the institution: assigned, though the name is gone.
      event('assigned', { from: null, to: OTHER_REVIEWER, from_name: null, to_name: null }),
    ]);
    expect(lines[2]).toContain('Reviewer assigned');
    expect(lines[2]).toContain('Now assigned to Jean Habimana');
    expect(lines[1]).toContain('Now unassigned');
    expect(lines[1]).not.toContain('Now assigned');
    expect(lines[0]).toContain('Now assigned to a former member');
  });

  it('words every kind of event with its details', () => {
    const lines = renderHistory([
      event('submitted', {}, { kind: 'applicant', name: 'Aline Mukamana' }),
      event('stage_changed', { from: null, to: 'interview' }),
      event('note_added', { note_id: DOCUMENT }),
      event('note_deleted', { note_id: DOCUMENT }),
      event('score_saved', { total: 88, average: 88 }),
      event('document_reviewed', { document_id: DOCUMENT, type: 'passport', status: 'rejected', reason: 'Blurred' }),
      event('decision_drafted', { state: 'waitlisted', automatic: false }),
      event('decision_drafted', { state: 'accepted', automatic: false, from: 'waitlisted' }),
      event('decision_withdrawn', { state: 'accepted', automatic: false }),
      event('decision_scheduled', { state: 'accepted', release_at: '2026-07-01T08:00:00.000Z' }),
      event('decision_released', { state: 'accepted', automatic: true }, { kind: 'system', name: null }),
      event('offer_accepted', {}, { kind: 'applicant', name: 'Aline Mukamana' }),
    ]).reverse();
    const expected: Array<[string, ...string[]]> = [
      ['Application submitted', 'By the applicant'],
      ['Stage changed', 'No stage → Interview'],
      ['Note added'],
      ['Note deleted'],
      ['Score saved', 'Total 88'],
      ['Document reviewed', 'Passport: Rejected', 'Reason: Blurred'],
      ['Decision drafted', 'Waitlisted'],
      ['Decision drafted', 'Waitlisted → Accepted'],
      ['Draft decision withdrawn', 'Accepted'],
      ['Decision release scheduled', 'Accepted', 'Scheduled for'],
      ['Decision released', 'Accepted', 'Automatic', 'By Kaminuza (automatic)'],
      ['Offer accepted by the applicant', 'By the applicant'],
    ];
    expect(lines).toHaveLength(expected.length);
    expected.forEach((texts, index) => {
      for (const text of texts) expect(lines[index]).toContain(text);
    });
    // Raw ids and untranslated keys never reach the reader.
    for (const line of lines) {
      expect(line).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      expect(line).not.toMatch(/\b[a-z]+(\.[a-z_]+){2,}/);
    }
  });
  it('words a deferral request and its outcome with the cycle asked for', () => {
    const lines = renderHistory([
      event('deferral_requested', { cycle: 'September 2027 intake' }, { kind: 'applicant', name: 'Aline Mukamana' }),
      event('deferral_withdrawn', {}, { kind: 'applicant', name: 'Aline Mukamana' }),
      event('deferral_requested', { cycle: 'September 2028 intake' }, { kind: 'applicant', name: 'Aline Mukamana' }),
      event('deferral_approved', { cycle: 'September 2028 intake' }),
      event('deferral_declined', { offer_ended: true }, { kind: 'system', name: null }),
    ]).reverse();
    expect(lines[0]).toContain('Deferral requested by the applicant');
    expect(lines[0]).toContain('To September 2027 intake');
    expect(lines[1]).toContain('Deferral request withdrawn by the applicant');
    expect(lines[3]).toContain('Deferral approved');
    expect(lines[3]).toContain('To September 2028 intake');
    expect(lines[3]).toContain('By Diane Uwase');
    expect(lines[4]).toContain('Deferral declined');
    expect(lines[4]).toContain('The offer ended');
  });
});
