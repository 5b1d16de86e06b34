import type { NotificationType } from '@kaminuza/shared';
import type { Tx } from '../../db/client.ts';
import { membersHolding } from '../partners/index.ts';
import { notify } from '../notifications/index.ts';
import { readPreferencesOf } from '../settings/index.ts';

/** The application as staff open it, where a notification about it leads. */
export const reviewPath = (submissionId: string) => `/partner/applications/${submissionId}`;

/**
 * Tells each member who makes the institution's decisions of something waiting for one of them (a
 * deferral request, an applicant proposed from the waiting list), in the app only: staff are not pushed
 * (ADR 025), as finance staff are told of payment differences. The data names the application by its
 * reference, never the applicant (a member may review blind).
 */
export async function tellDecisionMakers(
  tx: Tx,
  partnerId: string,
  notice: { type: NotificationType; submissionId: string; data: Record<string, string> },
): Promise<void> {
  const members = await membersHolding(tx, partnerId, 'make_decisions');
  if (members.length === 0) return;
  const preferences = await readPreferencesOf(tx, members);
  for (const userId of members) {
    const held = preferences.get(userId)!;
    await notify(tx, {
      userId,
      category: 'status_updates',
      type: notice.type,
      data: notice.data,
      link: reviewPath(notice.submissionId),
      preferences: { ...held, push: { ...held.push, status_updates: false } },
    });
  }
}
