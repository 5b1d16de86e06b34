import { expect, type APIRequestContext, type ConsoleMessage, type Page } from '@playwright/test';
import { waitForApp } from './fixtures.ts';

/** Console errors and uncaught errors of a page, from now on. */
export function recordProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

/** Loads `path` fresh and waits until the app (or the enhancement module) has run and the page is idle. */
export async function loadFresh(page: Page, path: string) {
  await page.goto(path);
  await waitForApp(page);
  // Hydration, then the session request and what it switches, finish after the render event.
  await page.waitForLoadState('networkidle');
}

/** A new applicant signed up through the API, whose verification email is then in the mailbox. */
export async function signUpStudent(request: APIRequestContext, baseURL: string, tag: string): Promise<string> {
  const email = `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const created = await request.post('/api/v1/auth/sign-up/student', {
    headers: { origin: baseURL },
    data: {
      email,
      password: 'Umuseke#Kigali26',
      education_level: 'high_school',
      gender: 'female',
      first_name: 'Aline',
      last_name: 'Uwase',
      date_of_birth: '2006-04-12',
      phone: '+250788123456',
      city: 'Kigali',
      country: 'RW',
      accept_terms: true,
    },
  });
  expect(created.status()).toBe(201);
  return email;
}
