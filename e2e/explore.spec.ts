import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, ownBrowser, test, waitForApp } from './fixtures.ts';
import { latestEmail, linkIn } from './mailbox.ts';
import { saveOnboardingSteps, signInNewStudent, signUpStudent, STUDENT_PASSWORD } from './students.ts';

const PASSWORD = 'Kaminuza#2025';

interface Texts {
  email: string;
  password: string;
  signIn: string;
  nav: string;
  explore: string;
  heading: string;
  search: string;
  filters: string;
  showFilters: string;
  privateType: string;
  communityCollege: string;
  one: string;
  zero: string;
  empty: string;
  clear: string;
  tabs: string[];
  tabContent: string[];
  add: (name: string) => string;
  remove: (name: string) => string;
  myList: string;
  all: string;
  apply: string;
}

const EN: Texts = {
  email: 'Email address',
  password: 'Password',
  signIn: 'Sign in',
  nav: 'Student area',
  explore: 'Explore',
  heading: 'Explore Universities',
  search: 'Search universities',
  filters: 'Filters',
  showFilters: 'Show filters',
  privateType: 'Private',
  communityCollege: 'Community college',
  one: '1 Result',
  zero: '0 Results',
  empty: 'No universities match your search.',
  clear: 'Clear filters',
  tabs: ['Overview', 'Admissions', 'Academics', 'Costs', 'Campus Life'],
  tabContent: ['About', 'Acceptance rate', 'Fields of study', 'Tuition per year', 'Total enrollment'],
  add: (name) => `Add to list: ${name}`,
  remove: (name) => `Remove from list: ${name}`,
  myList: 'My list',
  all: 'All universities',
  apply: 'Apply',
};

const FR: Texts = {
  email: 'Adresse e-mail',
  password: 'Mot de passe',
  signIn: 'Se connecter',
  nav: 'Espace étudiant',
  explore: 'Explorer',
  heading: 'Explorer les universités',
  search: 'Rechercher des universités',
  filters: 'Filtres',
  showFilters: 'Afficher les filtres',
  privateType: 'Privée',
  communityCollege: 'Collège communautaire',
  one: '1 résultat',
  zero: '0 résultat',
  empty: 'Aucune université ne correspond à votre recherche.',
  clear: 'Effacer les filtres',
  tabs: ['Aperçu', 'Admissions', 'Études', 'Coûts', 'Vie du campus'],
  tabContent: ['À propos', "Taux d'admission", "Domaines d'études", 'Frais de scolarité par an', 'Effectif total'],
  add: (name) => `Ajouter à ma liste : ${name}`,
  remove: (name) => `Retirer de ma liste : ${name}`,
  myList: 'Ma liste',
  all: 'Toutes les universités',
  apply: 'Postuler',
};

const RW: Texts = {
  email: 'Aderesi imeri',
  password: "Ijambo ry'ibanga",
  signIn: 'Injira',
  nav: "Igice cy'umunyeshuri",
  explore: 'Shakisha',
  heading: 'Shakisha kaminuza',
  search: 'Shakisha kaminuza',
  filters: 'Iyungurura',
  showFilters: 'Erekana iyungurura',
  privateType: 'Iyigenga',
  communityCollege: 'Ishuri rikuru ry’akarere',
  one: 'Igisubizo 1',
  zero: 'Ibisubizo 0',
  empty: 'Nta kaminuza ihuye n’ibyo ushaka.',
  clear: 'Siba iyungurura',
  tabs: ['Incamake', 'Kwinjira', 'Amasomo', 'Ibiciro', 'Ubuzima bw’ikigo'],
  tabContent: [
    'Ibyerekeye',
    'Igipimo cyo kwemerwa',
    'Amashami y’amasomo',
    'Amafaranga y’ishuri ku mwaka',
    'Abanyeshuri bose',
  ],
  add: (name) => `Shyira ku rutonde: ${name}`,
  remove: (name) => `Kura ku rutonde: ${name}`,
  myList: 'Urutonde rwanjye',
  all: 'Kaminuza zose',
  apply: 'Saba',
};

async function signIn(page: Page, texts: Texts) {
  await page.goto('/login');
  await waitForApp(page);
  await page.getByLabel(texts.email).fill('demo.student@kaminuza.example');
  await page.getByLabel(texts.password).fill(PASSWORD);
  await page.getByRole('button', { name: texts.signIn, exact: true }).click();
  await expect(page).toHaveURL(/\/home$/);
}

/** On phones the filters fold behind a button. */
async function openFilters(page: Page, texts: Texts) {
  const toggle = page.getByRole('button', { name: texts.showFilters });
  if (await toggle.isVisible()) await toggle.click();
}

/**
 * Filters are controlled by the address: the box shows its new state once the navigation lands, so
 * the test clicks and then waits for it instead of expecting the change within the click.
 */
async function toggleFilter(page: Page, name: string, on: boolean) {
  const box = page.getByRole('checkbox', { name, exact: true });
  await box.click();
  if (on) await expect(box).toBeChecked();
  else await expect(box).not.toBeChecked();
}

async function exploreFromNav(page: Page, texts: Texts) {
  await page.getByRole('navigation', { name: texts.nav }).getByRole('link', { name: texts.explore }).click();
  await expect(page).toHaveURL(/\/partners$/);
  await expect(page.getByRole('heading', { level: 1, name: texts.heading })).toBeVisible();
}

async function searchFor(page: Page, texts: Texts, text: string) {
  await page.getByRole('searchbox', { name: texts.search }).fill(text);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, '\\+')}`));
}

/** Nothing sticks out sideways, at 360 px as on a desktop. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

async function visitEachTab(page: Page, texts: Texts) {
  const tablist = page.getByRole('tablist');
  for (const [index, name] of texts.tabs.entries()) {
    await tablist.getByRole('tab', { name, exact: true }).click();
    await expect(tablist.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel')).toContainText(texts.tabContent[index]!);
  }
}

test.describe('Explore Universities', () => {
  test('a student searches, filters, opens a university, visits each tab and keeps it on their list', async ({
    page,
  }) => {
    const texts = EN;
    const name = 'Kepler College';
    await signIn(page, texts);
    await exploreFromNav(page, texts);
    await expect(page.getByRole('status').filter({ hasText: /^\d+ Results$/ })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    await searchFor(page, texts, 'Kepler');
    await expect(page.getByText(texts.one, { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name })).toBeVisible();

    // A misspelt name still finds it.
    await searchFor(page, texts, 'Keplr');
    await expect(page.getByRole('link', { name })).toBeVisible();
    await searchFor(page, texts, 'Kepler');

    await openFilters(page, texts);
    await toggleFilter(page, texts.communityCollege, true);
    await expect(page.getByText(texts.zero, { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: texts.empty })).toBeVisible();
    await toggleFilter(page, texts.communityCollege, false);
    await toggleFilter(page, texts.privateType, true);
    await expect(page.getByText(texts.one, { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/type=private/);

    // The address keeps the search and filters: a reload shows the same results.
    await page.reload();
    await waitForApp(page);
    await expect(page.getByRole('searchbox', { name: texts.search })).toHaveValue('Kepler');
    await expect(page.getByText(texts.one, { exact: true })).toBeVisible();

    await page.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('link', { name: texts.apply })).toHaveAttribute(
      'href',
      /\/partners\/[^/]+\/application$/,
    );
    await visitEachTab(page, texts);
    await expectNoSidewaysScroll(page);
    // Arrow keys move between tabs.
    await page.getByRole('tab', { name: texts.tabs[0], exact: true }).click();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: texts.tabs[1], exact: true })).toBeFocused();
    await expect(page.getByRole('tab', { name: texts.tabs[1], exact: true })).toHaveAttribute('aria-selected', 'true');
    await expectNoAxeViolations(page);

    // Both projects share the demo student and its list: only one of them changes it (the whole-journey
    // test adds and removes on a phone too, with an institution of its own).
    if (test.info().project.name !== 'desktop') return;
    await page.getByRole('button', { name: texts.add(name) }).click();
    await expect(page.getByRole('button', { name: texts.remove(name) })).toBeVisible();

    await page.getByRole('navigation', { name: texts.nav }).getByRole('link', { name: texts.explore }).click();
    await page.getByRole('button', { name: texts.myList }).click();
    await expect(page).toHaveURL(/saved=true/);
    await expect(page.getByRole('link', { name })).toBeVisible();
    await page.getByRole('button', { name: texts.remove(name) }).click();
    await expect(
      page.getByRole('button', { name: texts.add(name) }).or(page.getByText('Your list is empty.')),
    ).toBeVisible();
    await expect(page.getByRole('link', { name })).toHaveCount(0);
    await page.getByRole('button', { name: texts.all }).click();
    await expect(page).not.toHaveURL(/saved=true/);
  });

  test('an unknown university shows a not-found state with a way back', { tag: '@desktop-only' }, async ({ page }) => {
    await signIn(page, EN);
    await page.goto('/partners/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { name: 'University not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Explore' }).last().click();
    await expect(page).toHaveURL(/\/partners$/);
  });

  for (const [language, texts, name] of [
    ['fr', FR, 'Ashesi University'],
    ['rw', RW, 'Makerere University'],
  ] as const) {
    test(
      `in ${language}: search, count, tabs and the list`,
      { tag: language === 'rw' ? '@phone-only' : '@desktop-only' },
      async ({ page, baseURL }) => {
        await page.context().addCookies([{ name: 'i18next', value: language, url: baseURL! }]);
        await signIn(page, texts);
        await exploreFromNav(page, texts);
        await searchFor(page, texts, name.split(' ')[0]!);
        await expect(page.getByText(texts.one, { exact: true })).toBeVisible();
        await openFilters(page, texts);
        await toggleFilter(page, texts.communityCollege, true);
        await expect(page.getByText(texts.zero, { exact: true })).toBeVisible();
        await page.getByRole('button', { name: texts.clear }).first().click();
        await expect(page.getByRole('searchbox', { name: texts.search })).toHaveValue('');
        await searchFor(page, texts, name.split(' ')[0]!);
        await expect(page.getByText(texts.one, { exact: true })).toBeVisible();
        await expectNoAxeViolations(page);

        await page.getByRole('link', { name }).click();
        await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
        await visitEachTab(page, texts);
        await expectNoAxeViolations(page);
        if (test.info().project.name !== 'desktop') return;
        await page.getByRole('button', { name: texts.add(name) }).click();
        await expect(page.getByRole('button', { name: texts.remove(name) })).toBeVisible();
        await page.getByRole('button', { name: texts.remove(name) }).click();
        await expect(page.getByRole('button', { name: texts.add(name) })).toBeVisible();
      },
    );
  }
});

const AASTU = 'Addis Ababa Science and Technology University';

/** The result cards of the page (each a list item titled by a level-2 heading). */
const resultCards = (page: Page) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2 }) });

test.describe('Explore Universities: country and Apply', () => {
  test('a student filters by country, in a shareable address', async ({ page }) => {
    await signIn(page, EN);
    await exploreFromNav(page, EN);
    await openFilters(page, EN);
    const country = page.getByRole('combobox', { name: 'Country' });
    await country.selectOption({ label: 'Rwanda' });
    await expect(page).toHaveURL(/[?&]country=RW(&|$)/);
    await expect(country).toHaveValue('RW');
    await expect(page.getByRole('link', { name: 'Kepler College', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: AASTU, exact: true })).toHaveCount(0);
    const cards = resultCards(page);
    expect(await cards.count()).toBeGreaterThanOrEqual(7);
    for (const card of await cards.all()) await expect(card).toContainText('Rwanda');
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // The address carries the filter: opened again (a shared link), it shows the same countries.
    const address = page.url();
    await page.goto('/home');
    await page.goto(address);
    await waitForApp(page);
    await openFilters(page, EN);
    await expect(page.getByRole('combobox', { name: 'Country' })).toHaveValue('RW');
    await expect(page.getByRole('link', { name: 'Kepler College', exact: true })).toBeVisible();

    // A country searched by name finds the same universities, Kigali's included.
    await page.getByRole('button', { name: EN.clear }).first().click();
    await searchFor(page, EN, 'rwanda');
    await expect(page.getByRole('link', { name: 'Kepler College', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'African Leadership University', exact: true })).toBeVisible();
  });

  test('names the countries in the visitor’s language', { tag: '@desktop-only' }, async ({ page, baseURL }) => {
    await page.context().addCookies([{ name: 'i18next', value: 'fr', url: baseURL! }]);
    await signIn(page, FR);
    await page.goto('/partners?country=ET');
    await waitForApp(page);
    await expect(page.getByRole('combobox', { name: 'Pays' })).toHaveValue('ET');
    await expect(page.getByRole('combobox', { name: 'Pays' }).locator('option:checked')).toHaveText('Éthiopie');
    await expect(page.getByRole('link', { name: AASTU, exact: true })).toBeVisible();
  });

  test('Apply on a card opens the application, through sign-in for a signed-out visitor', async ({
    page,
    browser,
    baseURL,
    request,
  }) => {
    // An applicant of this test: the demo student has applied already.
    const email = await signInNewStudent(page, request, baseURL!);
    await page.goto(`/partners?q=${encodeURIComponent('Addis Ababa')}`);
    await waitForApp(page);
    const apply = page.getByRole('link', { name: `Apply to ${AASTU}` });
    await expect(apply).toBeVisible();
    // A university that takes no applications here has none.
    await expect(page.getByRole('link', { name: 'Apply to Addis Ababa University', exact: true })).toHaveCount(0);
    const href = await apply.getAttribute('href');
    expect(href).toMatch(/^\/partners\/[0-9a-f-]{36}\/application$/);
    await expectNoAxeViolations(page);
    await apply.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByRole('heading', { level: 1, name: `Apply to ${AASTU}` })).toBeVisible();

    // A visitor who is not signed in is asked to sign in, then lands on the same application.
    const visitor = await ownBrowser(browser, baseURL);
    await visitor.goto(href!);
    await expect(visitor).toHaveURL(/\/login$/);
    await visitor.getByLabel(EN.email).fill(email);
    await visitor.getByLabel(EN.password).fill(STUDENT_PASSWORD);
    await visitor.getByRole('button', { name: EN.signIn, exact: true }).click();
    await expect(visitor).toHaveURL(new RegExp(`${href}$`));
    await expect(visitor.getByRole('heading', { level: 1, name: `Apply to ${AASTU}` })).toBeVisible();
    await visitor.context().close();
  });

  test(
    'a visitor without an account signs up, finishes onboarding and lands on the application',
    {
      tag: '@desktop-only',
    },
    async ({ page, browser, baseURL, request }) => {
      await signIn(page, EN);
      await page.goto(`/partners?q=${encodeURIComponent(AASTU)}`);
      const href = await page.getByRole('link', { name: `Apply to ${AASTU}` }).getAttribute('href');

      const visitor = await ownBrowser(browser, baseURL);
      await visitor.goto(href!);
      await expect(visitor).toHaveURL(/\/login$/);
      await visitor.getByRole('link', { name: 'Create an account' }).click();
      await expect(visitor).toHaveURL(/\/signup\/live$/);
      // Signed up (as the form would), verified from the emailed link in the same browser, onboarded.
      const email = await signUpStudent(request, baseURL!, 'apply');
      await visitor.goto(linkIn((await latestEmail(request, email, /verif/i)).text, '/auth/verify-email'));
      await expect(visitor).toHaveURL(/\/onboarding\/student$/);
      await saveOnboardingSteps(visitor, baseURL!);
      // The last step (an optional picture) is finished on screen.
      await visitor.reload();
      await visitor.getByRole('button', { name: 'Finish' }).click();
      await expect(visitor).toHaveURL(new RegExp(`${href}$`));
      await expect(visitor.getByRole('heading', { level: 1, name: `Apply to ${AASTU}` })).toBeVisible();
      await visitor.context().close();
    },
  );
});
