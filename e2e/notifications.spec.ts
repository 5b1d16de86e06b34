import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiData, expect, expectAccessibleAndFitting, ownBrowser, test } from './fixtures.ts';
import { latestEmail, linkIn } from './mailbox.ts';
import { setUpReview, signInReadyInstitution, submitApplication, type ReadyInstitution } from './staff.ts';
import { signInNewStudent } from './students.ts';

const DEMO_ADMIN = { email: 'demo.admin@kaminuza.example', password: 'Kaminuza#2025' };

// Each test has an applicant of its own: the desktop and phone projects run side by side, and a count of
// unread notifications or an email preference shared between them would race.

/** The (signed-in) student applies to the new institution and submits; staff draft a rejection and release it. */
async function releasedDecision(staff: Page, student: Page, institution: ReadyInstitution, baseURL: string) {
  const headers = { origin: baseURL };
  await setUpReview(
    staff,
    institution,
    {
      letter: 'Dear {student_name},\n\nWe are delighted to admit you to {program_name}.',
      rubric: [{ id: 'overall', name: 'Overall', weight: 1 }],
    },
    baseURL,
  );
  const receipt = await submitApplication(student, institution, baseURL);
  const review = `/api/v1/partners/${institution.partnerId}/review/submissions/${receipt.id}/decision`;
  await apiData(await staff.request.put(review, { headers, data: { state: 'rejected' } }));
  await apiData(
    await staff.request.post(`/api/v1/partners/${institution.partnerId}/decisions/release`, {
      headers,
      data: { submission_ids: [receipt.id], when: 'now' },
    }),
  );
}

const bell = (page: Page) => page.getByTestId('notifications-bell');

test('a released decision: the bell counts it, the list links to it, reading clears the count, and the email is sent', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.slow();
  const institution = await signInReadyInstitution(page, request);
  const student = await ownBrowser(browser, baseURL);
  const email = await signInNewStudent(student, request, baseURL!);
  await releasedDecision(page, student, institution, baseURL!);

  await student.goto('/home');
  await expect(student.getByTestId('notifications-count')).toBeVisible();
  await expect(bell(student)).toContainText(/\d+ unread notifications?/);
  await bell(student).click();
  const panel = student.getByRole('region', { name: 'Notifications' });
  const item = panel.getByTestId('notification').filter({ hasText: institution.name }).first();
  await expect(item).toContainText(`${institution.name} has made a decision on your application for`);
  await expectAccessibleAndFitting(student);
  await student.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(student.getByTestId('notifications-count')).toHaveCount(0);
  await expect(bell(student)).not.toContainText('unread');
  await item.getByRole('link', { name: 'A decision is ready' }).click();
  await expect(student).toHaveURL(new RegExp(`/partners/${institution.partnerId}/application/decision$`));

  // Application updates are emailed by default.
  await latestEmail(request, email, new RegExp(`decision on your application to ${institution.name}`));

  // Settings offer push on this device (turning it on needs a real push service, outside this test).
  await student.goto('/settings');
  await expect(student.getByRole('heading', { name: 'Push notifications on this device' })).toBeVisible();
  await expect(student.getByTestId('push-state')).toHaveText(/^Push is off on this device\.$|cannot receive push/);
  await expectAccessibleAndFitting(student);
});

test('with application update emails off only the in-app notification comes; a marketing email unsubscribes without signing in', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.slow();
  const headers = { origin: baseURL! };
  const student = await ownBrowser(browser, baseURL);
  const email = await signInNewStudent(student, request, baseURL!);
  // The applicant turns application update emails off and marketing on, on the settings page.
  await student.goto('/settings');
  const updates = student.getByRole('switch', { name: 'Application updates' });
  const marketing = student.getByRole('switch', { name: 'Marketing', exact: true });
  // Each switch moves once its optimistic update lands, a moment after the click.
  await updates.click();
  await expect(updates).not.toBeChecked();
  await marketing.click();
  await expect(marketing).toBeChecked();
  await student.waitForLoadState('networkidle');
  await student.reload();
  await expect(updates).not.toBeChecked();
  await expect(marketing).toBeChecked();

  const institution = await signInReadyInstitution(page, request);
  await releasedDecision(page, student, institution, baseURL!);
  await student.goto('/home');
  await bell(student).click();
  await expect(
    student.getByTestId('notification').filter({ hasText: `${institution.name} has made a decision` }),
  ).toBeVisible();
  // The outbox delivers within a second or two; give it time, then nothing about this decision arrived.
  await student.waitForTimeout(3_000);
  const mailbox = (await (await request.get('/api/v1/dev/mailbox')).json()) as { data: { subject: string }[] };
  // (The submission receipt is the applicant's own action's receipt, not an update: it still comes.)
  const about = mailbox.data.filter((mail) =>
    mail.subject.includes(`decision on your application to ${institution.name}`),
  );
  expect(about).toEqual([]);

  // An admin's announcement reaches those who opted in, with their own unsubscribe link.
  const admin = await ownBrowser(browser, baseURL);
  await apiData(await admin.request.post('/api/v1/auth/sign-in/admin', { headers, data: DEMO_ADMIN }));
  const subject = `News ${randomBytes(4).toString('hex')}`;
  await apiData(
    await admin.request.post('/api/v1/admin/announcements', {
      headers,
      data: { subject, body: 'Ten new universities joined Kaminuza this month.' },
    }),
  );
  const mail = await latestEmail(request, email, new RegExp(subject));
  const link = linkIn(mail.text, '/unsubscribe/');

  // Opened by someone not signed in: nothing changes until the button.
  const visitor = await ownBrowser(browser, baseURL);
  await visitor.goto(link);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Unsubscribe from marketing emails' })).toBeVisible();
  await expectAccessibleAndFitting(visitor);
  const before = await apiData<{ notifications: { email: { marketing: boolean } } }>(
    await student.request.get('/api/v1/me/settings'),
  );
  expect(before.notifications.email.marketing).toBe(true);
  await visitor.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(visitor.getByText('You are unsubscribed.')).toBeVisible();
  const after = await apiData<{ notifications: { email: { marketing: boolean } } }>(
    await student.request.get('/api/v1/me/settings'),
  );
  expect(after.notifications.email.marketing).toBe(false);
});
