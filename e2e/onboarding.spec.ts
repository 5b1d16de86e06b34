import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, test, waitForApp } from './fixtures.ts';
import { latestEmail, linkIn } from './mailbox.ts';

const PASSWORD = 'Umuseke#Kigali26';
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

type Catalogue = { [key: string]: string | Catalogue };
const catalogues = Object.fromEntries(
  (['en', 'rw'] as const).map((lang) => [
    lang,
    JSON.parse(readFileSync(new URL(`../packages/shared/locales/${lang}.json`, import.meta.url), 'utf8')) as Catalogue,
  ]),
);

/** A text of the catalogue, with `{{name}}` placeholders filled. */
function text(lang: 'en' | 'rw', key: string, values: Record<string, string | number> = {}): string {
  let node: string | Catalogue | undefined = catalogues[lang];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no ${lang} text for ${key}`);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
}

/** A new applicant, signed up and verified through the UI and the dev mailbox. */
async function signUpAndVerify(page: Page, request: APIRequestContext) {
  const email = uniqueEmail('onboarding');
  await page.goto('/signup/live');
  await waitForApp(page);
  await page.getByLabel('First name', { exact: true }).fill('Aline');
  await page.getByLabel('Last name', { exact: true }).fill('Uwase');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Date of birth').fill('2006-04-12');
  await page.getByLabel('Gender').selectOption('female');
  await page.getByLabel('Education level').selectOption('high_school');
  await page.getByLabel('Country of residence').selectOption('RW');
  await page.getByLabel('City').fill('Kigali');
  await page.getByLabel('Phone number').fill('0788123456');
  await page.getByLabel(/I accept the terms/).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/pending$/);
  const mail = await latestEmail(request, email, /verif/i);
  await page.goto(linkIn(mail.text, '/auth/verify-email'));
  return email;
}

for (const lang of ['en', 'rw'] as const) {
  test(
    `a new student onboards, resumes after a reload, finishes and edits the profile (${lang})`,
    { tag: lang === 'en' ? '@desktop-only' : '@phone-only' },
    async ({ page, request }) => {
      // A whole journey with an email in between, on a loaded two-core machine.
      test.slow();
      const tx = (key: string, values?: Record<string, string | number>) => text(lang, key, values);
      // Optional fields carry a suffix after their name.
      const field = (name: string) =>
        page.getByLabel(new RegExp(`^${tx(`onboarding.fields.${name}`).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      const stepIs = async (number: number) => {
        await expect(page.getByText(tx('onboarding.step_of', { current: number, total: 7 }))).toBeVisible();
        await expectNoAxeViolations(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
          0,
        );
      };
      const continueButton = () => page.getByRole('button', { name: tx('onboarding.continue') });
      const expectErrors = async (...keys: string[]) => {
        await expect(page.getByText(tx('validation.general'))).toBeVisible();
        for (const key of keys) await expect(page.getByText(tx(`validation.${key}`)).first()).toBeVisible();
      };

      await signUpAndVerify(page, request);
      // A student who has not finished onboarding is sent to it from the student area.
      await expect(page).toHaveURL(/\/onboarding\/student$/);
      await page.goto('/home');
      await expect(page).toHaveURL(/\/onboarding\/student$/);

      // Step 0: the language switches the interface at once.
      await expect(page.getByText(text('en', 'onboarding.step_of', { current: 1, total: 7 }))).toBeVisible();
      await page.getByRole('radio', { name: lang === 'en' ? 'English' : 'Kinyarwanda' }).check();
      await expect(page.getByRole('heading', { level: 2 })).toHaveText(tx('onboarding.steps.language'));
      await stepIs(1);
      await continueButton().click();

      // Step 1: names (filled in at sign-up; emptied to see the rules).
      await stepIs(2);
      await field('first_name').fill('');
      await field('last_name').fill('');
      await continueButton().click();
      await expectErrors('first_name_required', 'last_name_required');
      await field('first_name').fill('A');
      await field('last_name').fill('Uwase');
      await continueButton().click();
      await expectErrors('first_name_too_short');
      await field('first_name').fill('Aline');
      // A failed save says so and keeps what was typed.
      const failing = {
        status: 503,
        contentType: 'application/json',
        body: '{"error":{"status":"UNAVAILABLE","message":"x"}}',
      };
      await page.route('**/api/v1/students/me/onboarding/steps/*', (route) => route.fulfill(failing));
      await continueButton().click();
      await expect(page.getByText(tx('profile.errors.save_failed'))).toBeVisible();
      await expect(field('first_name')).toHaveValue('Aline');
      await expect(page.getByText(tx('onboarding.step_of', { current: 2, total: 7 }))).toBeVisible();
      await page.unrouteAll();
      await continueButton().click();

      // Step 2: date of birth, gender, nationality.
      await stepIs(3);
      await field('date_of_birth').fill('');
      await field('gender').selectOption('');
      await continueButton().click();
      await expectErrors('date_of_birth_required', 'gender_required', 'nationality_required');
      await field('date_of_birth').fill('2018-01-01');
      await continueButton().click();
      await expectErrors('age_range');
      await field('date_of_birth').fill('2006-04-12');
      await field('gender').selectOption('female');
      await field('nationality').selectOption('RW');
      await continueButton().click();

      // Step 3: phone, checked for its country.
      await stepIs(4);
      await field('phone').fill('');
      await continueButton().click();
      await expectErrors('phone_required');
      await field('phone').fill('12345');
      await continueButton().click();
      await expectErrors('phone_invalid');
      await field('phone').fill('0788 123 456');
      await continueButton().click();

      // A reload in the middle resumes at the saved step with the saved values.
      await stepIs(5);
      await page.reload();
      await stepIs(5);
      await expect(field('country_of_residence')).toHaveValue('RW');

      // Step 4: residence, address search and city.
      await field('city').fill('');
      await continueButton().click();
      await expectErrors('address_required', 'city_required');
      const search = page.getByRole('combobox', { name: tx('onboarding.address.search') });
      // A place the data does not know is said so, and kept as typed when the student enters it.
      await search.fill('Zzyxqv-Centre');
      await expect(page.getByText(tx('onboarding.address.none_found'))).toBeVisible();
      await page.getByRole('button', { name: tx('onboarding.address.use_typed', { text: 'Zzyxqv-Centre' }) }).click();
      await expect(field('city')).toHaveValue('Zzyxqv-Centre');
      // Rwanda's districts and sectors are found, named with their province.
      await search.fill('huye');
      const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const province = escape(tx('onboarding.address.provinces.RW-05'));
      await page
        .getByRole('option', {
          name: new RegExp(`^Huye ${escape(tx('onboarding.address.kinds.district'))}, ${province}`),
        })
        .click();
      await expect(field('city')).toHaveValue('Huye');
      await search.fill('musan');
      await page
        .getByRole('option', { name: /Musanze/ })
        .first()
        .click();
      await expect(field('city')).toHaveValue('Musanze');
      await field('address').fill('KN');
      await continueButton().click();
      await expectErrors('address_too_short');
      await field('address').fill('Avenue de la Cathédrale 12');
      await continueButton().click();

      // Step 5: education level and the most recent school, found without typing its accent.
      await stepIs(6);
      await continueButton().click();
      await expectErrors('school_required');
      const schoolSearch = page.getByLabel(tx('schools.search'));
      await schoolSearch.fill('Zzyzx Academy');
      await expect(page.getByText(tx('schools.none_found'))).toBeVisible();
      await expect(
        page.getByRole('button', { name: tx('schools.enter_typed', { text: 'Zzyzx Academy' }) }),
      ).toBeVisible();
      await schoolSearch.fill('LYCÉE');
      await expect(page.getByRole('button', { name: /Lycée Notre-Dame de Cîteaux/ })).toBeVisible();
      await schoolSearch.fill('lycee de kig');
      await page.getByRole('button', { name: /Lycée de Kigali/ }).click();
      await expect(page.getByText(tx('schools.selected'))).toBeVisible();
      await continueButton().click();

      // Step 6: the optional picture, then Finish.
      await stepIs(7);
      await page.route('**/api/v1/students/me/onboarding/complete', (route) => route.fulfill(failing));
      await page.getByRole('button', { name: tx('onboarding.finish') }).click();
      await expect(page.getByText(tx('profile.errors.complete_failed'))).toBeVisible();
      await page.unrouteAll();
      await page.getByRole('button', { name: tx('onboarding.finish') }).click();
      await expect(page).toHaveURL(/\/home$/);

      // The profile: completion shown, a field edited and kept.
      await page.getByRole('link', { name: tx('auth.home.profile_link') }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await expect(page.getByRole('progressbar')).toBeVisible();
      await expect(page.getByText(/\d+ ?%/).first()).toBeVisible();
      await expect(page.getByRole('tab', { name: tx('profile.tabs.personal') })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      await expectNoAxeViolations(page);
      await field('preferred_name').fill('Lina');
      await page.getByRole('button', { name: tx('profile.save') }).click();
      await expect(page.getByText(tx('profile.saved'))).toBeVisible();

      await page.getByRole('tab', { name: tx('profile.tabs.education') }).click();
      // National examination results: a WASSCE sitting, subjects typed and picked from its list.
      await page.getByRole('button', { name: tx('profile.exams.add') }).click();
      const sittingForm = page.getByRole('form', { name: tx('profile.exams.add_title') });
      await sittingForm.getByRole('button', { name: tx('profile.exams.save') }).click();
      await expectErrors('examination_required', 'exam_year_invalid');
      await sittingForm.getByRole('combobox', { name: tx('profile.exams.examination') }).selectOption('waec_wassce');
      await sittingForm.getByRole('textbox', { name: tx('profile.exams.year') }).fill('2024');
      const subject = (number: number) =>
        sittingForm.getByRole('combobox', { name: tx('profile.exams.subject', { number }) });
      const grade = (number: number) =>
        sittingForm.getByRole('combobox', { name: tx('profile.exams.grade', { number }) });
      await subject(1).fill('English Language');
      await grade(1).selectOption('B3');
      await subject(2).fill('Mathematics');
      await grade(2).selectOption('D7');
      await subject(3).fill('integrated science');
      await sittingForm.getByRole('button', { name: tx('profile.exams.save') }).click();
      await expectErrors('grade_required');
      await grade(3).selectOption('B2');
      await sittingForm.getByRole('button', { name: tx('profile.exams.add_subject') }).click();
      await subject(4).fill('Physics');
      await grade(4).selectOption('A1');
      await sittingForm.getByRole('button', { name: tx('profile.exams.save') }).click();
      await expect(page.getByText(tx('profile.exams.added'))).toBeVisible();
      const card = page.getByRole('article', { name: /^WASSCE/ });
      await expect(card.getByText('Mathematics')).toBeVisible();
      await expect(card.getByText('D7')).toBeVisible();
      await expectNoAxeViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );

      // The open tab is kept in the address, so a reload comes back to it, with the results saved.
      await page.reload();
      await expect(page.getByRole('tab', { name: tx('profile.tabs.education') })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      await expect(card.getByText('Integrated Science')).toBeVisible();
      await card.getByRole('button', { name: tx('profile.exams.edit') }).click();
      const editForm = page.getByRole('form', { name: tx('profile.exams.edit_title') });
      await editForm.getByRole('combobox', { name: tx('profile.exams.grade', { number: 2 }) }).selectOption('C6');
      await editForm.getByRole('button', { name: tx('profile.exams.save') }).click();
      await expect(page.getByText(tx('profile.exams.saved'))).toBeVisible();
      await expect(card.getByText('C6')).toBeVisible();
      await page.getByRole('tab', { name: tx('profile.tabs.personal') }).click();
      await expect(field('preferred_name')).toHaveValue('Lina');
      await page.getByRole('tab', { name: tx('profile.tabs.documents') }).click();
      await expect(page.getByRole('tabpanel')).toBeVisible();
    },
  );
}

test('the demo student has finished onboarding and goes straight home', async ({ page }) => {
  await page.goto('/login');
  await waitForApp(page);
  await page.getByLabel('Email address').fill('demo.student@kaminuza.example');
  await page.getByLabel('Password').fill('Kaminuza#2025');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/profile');
  await expect(page.getByLabel(/^Preferred name/)).toHaveValue('Amani');
  await page.getByRole('tab', { name: 'Education' }).click();
  await expect(page.getByText('Lycée de Kigali')).toBeVisible();
});
