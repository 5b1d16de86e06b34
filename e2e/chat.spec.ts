import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, openMenuIfCollapsed, recordRenderEvent, test, waitForApp } from './fixtures.ts';
import { signIn } from './institutions.ts';
import { signInNewInstitution } from './staff.ts';

const DEMO_STUDENT = { email: 'demo.student@kaminuza.example', password: 'Kaminuza#2025' };
/** Markup a student might type: it must show as typed and never run. */
const PAYLOAD = `<img src=x onerror="window.__xss=1">Hello <b>admissions</b>`;

async function expectAccessibleAndFitting(page: Page) {
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

async function closeMenuIfOpen(page: Page) {
  const summary = page.locator('header summary');
  if ((await summary.isVisible()) && (await summary.evaluate((el) => (el.parentElement as HTMLDetailsElement).open))) {
    await summary.click();
  }
}

async function expectInert(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(page.getByRole('log').locator('img, b')).toHaveCount(0);
}

test('a student writes to a university from its page and its staff answer from their Messages', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  // Two people, an institution's registration and approval: a long journey on a loaded machine.
  test.slow();
  // Each run has its own new institution, so the demo student's conversation with it is new too.
  const { partnerId, name } = await signInNewInstitution(page, request);
  const headers = { origin: new URL(page.url()).origin };
  const published = await page.request.patch(`/api/v1/partners/${partnerId}/profile`, {
    headers,
    data: { published: true },
  });
  expect(published.status()).toBe(200);

  const studentContext = await browser.newContext({ baseURL });
  const student = await studentContext.newPage();
  await recordRenderEvent(student);
  await signIn(student, DEMO_STUDENT.email, DEMO_STUDENT.password);
  await expect(student).toHaveURL(/\/home$/);

  await student.goto(`/partners/${partnerId}`);
  await student.getByRole('link', { name: 'Message this university' }).click();
  await expect(student).toHaveURL(new RegExp(`/partners/${partnerId}/chat$`));
  await expect(student.getByRole('heading', { level: 1, name: `Messages with ${name}` })).toBeVisible();
  await expect(student.getByText('No messages yet. Write the first one.')).toBeVisible();
  await expectAccessibleAndFitting(student);

  // An empty message is refused before it is sent.
  await student.getByRole('button', { name: 'Send' }).click();
  await expect(student.getByText('Write a message')).toBeVisible();

  await student.getByLabel('Your message').fill(PAYLOAD);
  await student.getByRole('button', { name: 'Send' }).click();
  const studentLog = student.getByRole('log', { name: 'Messages' });
  await expect(studentLog.getByText(PAYLOAD, { exact: true })).toBeVisible();
  await expect(student.getByLabel('Your message')).toHaveValue('');
  await expectInert(student);

  // The institution's inbox, reached from the partner navigation.
  await page.goto('/partner/dashboard');
  await waitForApp(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await openMenuIfCollapsed(page);
  await page
    .getByRole('navigation', { name: 'Institution area' })
    .getByRole('link', { name: /^Messages/ })
    .locator('visible=true')
    .click();
  // On phones the header menu stays open after a choice: close it so it does not cover the page.
  await closeMenuIfOpen(page);
  await expect(page).toHaveURL(/\/partner\/messages$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  const entry = page.getByRole('list', { name: 'Conversations' }).getByRole('button');
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText(PAYLOAD);
  await expect(entry.getByText('1 unread message')).toBeAttached();
  await expectAccessibleAndFitting(page);
  await entry.click();
  const staffLog = page.getByRole('log', { name: 'Messages' });
  await expect(staffLog.getByText(PAYLOAD, { exact: true })).toBeVisible();
  await expectInert(page);
  await expectAccessibleAndFitting(page);

  await page.getByLabel('Your message').fill('Welcome! Send us your transcript when you apply.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(staffLog.getByText('Welcome! Send us your transcript when you apply.')).toBeVisible();

  // The reply arrives on the student's open conversation without a reload (the realtime socket).
  await expect(studentLog.getByText('Welcome! Send us your transcript when you apply.')).toBeVisible();
  // The institution opened the conversation: the student's message shows as seen.
  await expect(studentLog.getByText('Seen')).toBeVisible();
  await expectAccessibleAndFitting(student);

  // And the other way: the student's next message reaches the institution's open conversation live.
  await student.getByLabel('Your message').fill('Thank you, I will.');
  await student.getByRole('button', { name: 'Send' }).click();
  await expect(staffLog.getByText('Thank you, I will.')).toBeVisible();

  // Explore lists the conversation, so the student finds it again.
  await student.goto('/partners');
  await expect(student.getByRole('heading', { name: 'Your conversations with universities' })).toBeVisible();
  await expect(student.getByRole('link', { name: new RegExp(name) }).first()).toBeVisible();

  // The student read the reply: the read receipt reaches the institution live.
  await expect(page.getByRole('log', { name: 'Messages' }).getByText('Seen')).toBeVisible();

  // An institution that stops being listed stops taking messages.
  const hidden = await page.request.patch(`/api/v1/partners/${partnerId}/profile`, {
    headers,
    data: { published: false },
  });
  expect(hidden.status()).toBe(200);
  await student.goto(`/partners/${partnerId}/chat`);
  await expect(student.getByRole('alert')).toHaveText('This institution is not taking messages.');

  await studentContext.close();
});
