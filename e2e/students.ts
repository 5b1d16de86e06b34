import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { latestEmail, linkIn } from './mailbox.ts';

export const STUDENT_PASSWORD = 'Umuseke#Kigali26';

/** A new applicant signed up through the API, whose verification email is then in the mailbox. */
export async function signUpStudent(request: APIRequestContext, baseURL: string, tag: string): Promise<string> {
  const email = `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const created = await request.post('/api/v1/auth/sign-up/student', {
    headers: { origin: baseURL },
    data: {
      email,
      password: STUDENT_PASSWORD,
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

/**
 * A new applicant of this test only: signed up through the API and verified through the dev mailbox link
 * (which signs the browser in), left at the start of onboarding. Answers the email.
 */
export async function signUpNewStudent(page: Page, request: APIRequestContext, baseURL: string): Promise<string> {
  const email = await signUpStudent(request, baseURL, 'home');
  await page.goto(linkIn((await latestEmail(request, email, /verif/i)).text, '/auth/verify-email'));
  await expect(page).toHaveURL(/\/onboarding\/student$/);
  return email;
}

/** Saves onboarding's steps through the API as its screens would, all but the last (an optional picture). */
export async function saveOnboardingSteps(page: Page, baseURL: string): Promise<void> {
  const steps: object[] = [
    { language: 'en' },
    { first_name: 'Aline', last_name: 'Uwase', preferred_name: 'Lina' },
    { date_of_birth: '2006-04-12', gender: 'female', nationality: 'RW' },
    { phone_country: 'RW', phone: '0788123456' },
    { country_of_residence: 'RW', address: 'KN 5 Rd', city: 'Kigali' },
    {
      education_level: 'high_school',
      school: { name: 'Lycée de Kigali', city: 'Kigali', country: 'RW', levels_offered: ['secondary'] },
    },
  ];
  for (const [step, data] of steps.entries()) {
    const saved = await page.request.put(`/api/v1/students/me/onboarding/steps/${step}`, {
      headers: { origin: baseURL },
      data,
    });
    expect(saved.status(), await saved.text()).toBe(200);
  }
}

/** A new applicant of this test only (signUpNewStudent), onboarded through the onboarding API as its screens would save it. */
export async function signInNewStudent(page: Page, request: APIRequestContext, baseURL: string): Promise<string> {
  const email = await signUpNewStudent(page, request, baseURL);
  await saveOnboardingSteps(page, baseURL);
  const headers = { origin: baseURL };
  expect((await page.request.put('/api/v1/students/me/onboarding/steps/6', { headers, data: {} })).status()).toBe(200);
  expect((await page.request.post('/api/v1/students/me/onboarding/complete', { headers })).status()).toBe(200);
  return email;
}
