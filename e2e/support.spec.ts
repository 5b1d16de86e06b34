import { randomBytes } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, recordRenderEvent, test, waitForApp } from './fixtures.ts';

const PASSWORD = 'Kaminuza#2025';

/** A signed-in page of its own browser context, so the student and the admin never share cookies. */
async function signedInPage(browser: Browser, baseURL: string, who: 'student' | 'admin'): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await recordRenderEvent(page);
  const response = await page.request.post(who === 'admin' ? '/api/v1/auth/sign-in/admin' : '/api/v1/auth/sign-in', {
    data: { email: `demo.${who}@kaminuza.example`, password: PASSWORD },
    headers: { origin: baseURL },
  });
  expect(response.ok()).toBe(true);
  return page;
}

/*
 * The demo student is shared by the desktop and mobile projects, which may run side by side: each test
 * works only on the ticket it opens (a unique subject), never on the student's whole list.
 */
test('support: a student asks, the team assigns, answers and closes; markup stays text', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const subject = `Transcript upload ${randomBytes(4).toString('hex')}`;
  const payload = '<img src=x onerror="window.__xss=1">Hello <b>team</b>';
  const student = await signedInPage(browser, baseURL!, 'student');
  const admin = await signedInPage(browser, baseURL!, 'admin');

  // The student opens a conversation from the support page, which states the support hours.
  await student.goto('/support');
  await waitForApp(student);
  await expect(student.getByRole('heading', { name: 'Support', level: 1 })).toBeVisible();
  await expect(student.getByText(/Support is available 24\/7/)).toBeVisible();
  await expectNoAxeViolations(student);
  await student.getByLabel('Subject').fill(subject);
  await student.getByLabel('How can we help?').fill(payload);
  await student.getByRole('button', { name: 'Send to support' }).click();
  await expect(student.getByRole('heading', { name: subject })).toBeVisible();
  const log = student.getByRole('log', { name: 'Messages' });
  await expect(log.getByText(payload, { exact: true })).toBeVisible();
  expect(await student.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expectNoAxeViolations(student);

  // The team finds it in the admin dashboard's Support tab, takes it and answers.
  await admin.goto('/admin/dashboard?section=support');
  await waitForApp(admin);
  await admin.getByLabel('Search by subject, student name or email').fill(subject);
  await admin.getByRole('button', { name: new RegExp(subject) }).click();
  await expect(admin.getByRole('heading', { name: subject, level: 3 })).toBeVisible();
  await expect(admin.getByRole('log', { name: 'Messages' }).getByText(payload, { exact: true })).toBeVisible();
  await admin.getByRole('button', { name: 'Assign to me' }).click();
  await expect(admin.getByRole('button', { name: 'Assign to me' })).toHaveCount(0);
  await expectNoAxeViolations(admin);
  await admin.getByLabel('Your message').fill('We are on it: try a PDF under 10 MB.');
  await admin.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(admin.getByRole('log').getByText('We are on it: try a PDF under 10 MB.')).toBeVisible();

  // The reply arrives on the student's open page without a reload (pushed through the realtime socket).
  await expect(student.getByRole('log').getByText('We are on it: try a PDF under 10 MB.')).toBeVisible();

  // The team closes the ticket: the student cannot write any more, is told so, and is taken to a new one.
  await admin.getByRole('button', { name: 'Close ticket' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Close ticket' }).click();
  await expect(admin.getByText('This ticket is closed: no more replies can be sent.')).toBeVisible();

  // The closing reaches the student live too.
  await expect(student.getByText('Cannot send message - this ticket is closed')).toBeVisible();
  await expect(student.getByLabel('Your message')).toHaveCount(0);
  await expect(student.getByRole('heading', { name: 'Start a new conversation' })).toBeVisible({ timeout: 10_000 });
  await expect(student).toHaveURL(/\/support$/);

  await student.context().close();
  await admin.context().close();
});

test(
  'support: the student resolves a conversation, in French',
  { tag: '@phone-only' },
  async ({ browser, baseURL }) => {
    const subject = `Bourse ${randomBytes(4).toString('hex')}`;
    const student = await signedInPage(browser, baseURL!, 'student');
    await student.context().addCookies([{ name: 'i18next', value: 'fr', url: baseURL! }]);
    await student.goto('/support');
    await waitForApp(student);
    await student.getByLabel('Objet').fill(subject);
    await student.getByLabel('Comment pouvons-nous vous aider ?').fill('Quand les bourses ouvrent-elles ?');
    await student.getByRole('button', { name: "Envoyer à l'assistance" }).click();
    await expect(student.getByRole('heading', { name: subject })).toBeVisible();
    await student.getByRole('button', { name: 'Marquer comme résolue' }).click();
    await student.getByRole('dialog').getByRole('button', { name: 'Marquer comme résolue' }).click();
    await expect(student.getByText('Vous avez marqué cette conversation comme résolue.')).toBeVisible();
    await expect(student.getByLabel('Votre message')).toHaveCount(0);
    await expectNoAxeViolations(student);
    await student.getByRole('link', { name: 'Retour à vos conversations' }).click();
    await expect(student.getByRole('link', { name: new RegExp(subject) })).toContainText('Fermée');
    await student.context().close();
  },
);
