import type { Page } from '@playwright/test';
import {
  chooseLanguage,
  expect,
  expectNoAxeViolations,
  openMenuIfCollapsed,
  recordRenderEvent,
  test,
  waitForApp,
} from './fixtures.ts';
import { emailCount, latestEmail, linkIn } from './mailbox.ts';

const PASSWORD = 'Umuseke#Kigali26';
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function fillSignUp(page: Page, email: string, labels = EN) {
  await page.getByLabel(labels.firstName, { exact: true }).fill('Aline');
  await page.getByLabel(labels.lastName, { exact: true }).fill('Uwase');
  await page.getByLabel(labels.preferredName).fill('Lina');
  await page.getByLabel(labels.email).fill(email);
  await page.getByLabel(labels.password, { exact: true }).fill(PASSWORD);
  await page.getByLabel(labels.dateOfBirth).fill('2006-04-12');
  await page.getByLabel(labels.gender).selectOption('female');
  await page.getByLabel(labels.educationLevel).selectOption('high_school');
  await page.getByLabel(labels.country).selectOption('RW');
  await page.getByLabel(labels.city).fill('Kigali');
  await page.getByLabel(labels.phone).fill('0788123456');
  await page.getByLabel(labels.terms).check();
}

const EN = {
  firstName: 'First name',
  lastName: 'Last name',
  preferredName: /^Preferred name/,
  email: 'Email address',
  password: 'Password',
  dateOfBirth: 'Date of birth',
  gender: 'Gender',
  educationLevel: 'Education level',
  country: 'Country of residence',
  city: 'City',
  phone: 'Phone number',
  terms: /I accept the terms/,
};

const FR = {
  firstName: 'Prénom',
  lastName: 'Nom',
  preferredName: /^Nom d'usage/,
  email: 'Adresse e-mail',
  password: 'Mot de passe',
  dateOfBirth: 'Date de naissance',
  gender: 'Genre',
  educationLevel: "Niveau d'études",
  country: 'Pays de résidence',
  city: 'Ville',
  phone: 'Numéro de téléphone',
  terms: /J'accepte les conditions/,
};

test.describe('accounts', () => {
  // Whole journeys with emails in between: give them room on a loaded two-core machine.
  test.slow();

  test('sign up, verify from the email, land on onboarding; the form explains its rules', async ({ page, request }) => {
    const email = uniqueEmail('signup');
    await page.goto('/signup/live');
    await waitForApp(page);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Please fill in all required fields correctly')).toBeVisible();
    await expect(page.getByText('You must accept the terms and conditions to continue')).toBeVisible();
    await expectNoAxeViolations(page);

    await fillSignUp(page, email);
    await page.getByLabel('Date of birth').fill('2020-01-01');
    await page.getByLabel('Password', { exact: true }).fill('weakpass');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('You must be between 13 and 100 years old')).toBeVisible();
    await expect(page.getByText('Password must contain an uppercase letter')).toBeVisible();
    await page.getByLabel('Date of birth').fill('2006-04-12');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();

    await expect(page).toHaveURL(/\/pending$/);
    await expect(page.getByText(`We sent a verification link to ${email}`)).toBeVisible();

    // Signing in before verifying is refused and sends the email again.
    await page.goto('/login');
    await waitForApp(page);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Please verify your email before signing in')).toBeVisible();
    await expect(page.getByText('We have sent you a new verification email.')).toBeVisible();

    const mail = await latestEmail(request, email, /verif/i);
    await page.goto(linkIn(mail.text, '/auth/verify-email'));
    // A new applicant is signed in and starts with onboarding.
    await expect(page).toHaveURL(/\/onboarding\/student$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Set up your profile');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);

    // The session survives a reload; signing up again with the same address is refused.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Set up your profile');
    await openMenuIfCollapsed(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/signup/live');
    await waitForApp(page);
    await fillSignUp(page, email.toUpperCase());
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('This email is already registered. Please sign in instead.')).toBeVisible();
  });

  test(
    'sign-in rules: unknown account, admin sign-in for a student, wrong area',
    { tag: '@desktop-only' },
    async ({ page }) => {
      await page.goto('/login');
      await waitForApp(page);
      await page.getByLabel('Email address').fill(uniqueEmail('nobody'));
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByText('No user account found. Please sign up first.')).toBeVisible();

      await page.goto('/login/admin');
      await waitForApp(page);
      await page.getByLabel('Email address').fill('demo.student@kaminuza.example');
      await page.getByLabel('Password').fill('Kaminuza#2025');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByText('Unauthorized access - admin privileges required')).toBeVisible();

      await page.goto('/login');
      await waitForApp(page);
      await page.getByLabel('Email address').fill('demo.student@kaminuza.example');
      await page.getByLabel('Password').fill('Kaminuza#2025');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/home$/);

      // A student opening the admin area is signed out and told why.
      await page.goto('/admin/dashboard');
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText('You are not authorized as an admin!')).toBeVisible();
      await page.goto('/home');
      await expect(page).toHaveURL(/\/login$/);
    },
  );

  test(
    'each area refuses the other kinds of user with the spec message',
    { tag: '@desktop-only' },
    async ({ page }) => {
      const cases = [
        {
          email: 'demo.admin@kaminuza.example',
          login: '/login/admin',
          home: /\/admin\/dashboard$/,
          other: '/home',
          notice: 'You are not registered as a student!',
        },
        {
          email: 'demo.staff@kaminuza.example',
          login: '/login',
          home: /\/partner\/dashboard$/,
          other: '/admin/dashboard',
          notice: 'You are not authorized as an admin!',
        },
        {
          email: 'demo.admin@kaminuza.example',
          login: '/login/admin',
          home: /\/admin\/dashboard$/,
          other: '/partner/dashboard',
          notice: 'You are not registered as a staff member!',
        },
      ];
      for (const c of cases) {
        await page.goto(c.login);
        await waitForApp(page);
        await page.getByLabel('Email address').fill(c.email);
        await page.getByLabel('Password').fill('Kaminuza#2025');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expect(page).toHaveURL(c.home);
        await page.goto(c.other);
        await expect(page).toHaveURL(/\/login$/);
        await expect(page.getByText(c.notice)).toBeVisible();
      }
    },
  );

  test('forgot and reset password end to end', { tag: '@desktop-only' }, async ({ page, request, baseURL }) => {
    const email = uniqueEmail('reset');
    const created = await request.post('/api/v1/auth/sign-up/student', {
      headers: { origin: baseURL! },
      data: {
        email,
        password: PASSWORD,
        education_level: 'bachelor',
        gender: 'male',
        first_name: 'Jean',
        last_name: 'Habimana',
        date_of_birth: '2001-09-30',
        phone: '+250788000111',
        city: 'Huye',
        country: 'RW',
        accept_terms: true,
      },
    });
    expect(created.status()).toBe(201);
    await page.goto('/forgot-password');
    await waitForApp(page);
    await expectNoAxeViolations(page);
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect(page.getByText(`If an account exists for ${email}`)).toBeVisible();

    const mail = await latestEmail(request, email, /Reset your Kaminuza password/);
    expect(mail.text).toContain('Jean');
    const link = linkIn(mail.text, '/reset-password');
    await page.goto(link);
    await waitForApp(page);
    // A common password that meets the character rules is refused at its field; the link stays usable.
    await page.getByLabel('New password', { exact: true }).fill('Password1!');
    await page.getByLabel('Confirm the new password').fill('Password1!');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect(page.getByText('Password is too weak. Please use a stronger password.')).toBeVisible();
    const newPassword = 'Moonrise#2027';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm the new password').fill(newPassword);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect(page.getByText('Your password has been changed.')).toBeVisible();
    // The account is told, with a way to secure it.
    const notice = await latestEmail(request, email, /password was changed/i);
    expect(notice.text).toContain('/forgot-password');

    // The link works once.
    await page.goto(link);
    await waitForApp(page);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm the new password').fill(newPassword);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect(page.getByText('This link is invalid or has already been used.')).toBeVisible();
  });

  test(
    'strangers guessing the password cannot lock the owner out of a browser it signed in on',
    { tag: '@desktop-only' },
    async ({ page, browser, request, baseURL }) => {
      const email = uniqueEmail('lockout');
      const headers = { origin: baseURL! };
      const created = await request.post('/api/v1/auth/sign-up/student', {
        headers,
        data: {
          email,
          password: PASSWORD,
          education_level: 'bachelor',
          gender: 'female',
          first_name: 'Diane',
          last_name: 'Mukamana',
          date_of_birth: '2003-02-14',
          phone: '+250788000222',
          city: 'Musanze',
          country: 'RW',
          accept_terms: true,
        },
      });
      expect(created.status()).toBe(201);
      // Verifying signs this browser in and makes it a known device of the account.
      await page.goto(linkIn((await latestEmail(request, email, /verif/i)).text, '/auth/verify-email'));
      await expect(page).toHaveURL(/\/onboarding\/student$/);
      await openMenuIfCollapsed(page);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect(page).toHaveURL(/\/login$/);

      for (let attempt = 1; attempt <= 10; attempt++) {
        const wrong = await request.post('/api/v1/auth/sign-in', {
          headers,
          data: { email, password: `Wrong#${attempt}x` },
        });
        expect(wrong.status()).toBe(401);
      }

      // Another browser, even with the right password, is told how long to wait.
      const elsewhere = await browser.newContext({ baseURL });
      try {
        const stranger = await elsewhere.newPage();
        await recordRenderEvent(stranger);
        await stranger.goto('/login');
        await waitForApp(stranger);
        await stranger.getByLabel('Email address').fill(email);
        await stranger.getByLabel('Password').fill(PASSWORD);
        await stranger.getByRole('button', { name: 'Sign in' }).click();
        await expect(stranger.getByText('Too many attempts. Please try again in 15 minutes.')).toBeVisible();
      } finally {
        await elsewhere.close();
      }

      // The owner's browser still signs in.
      await page.getByLabel('Email address').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/onboarding\/student$/);
    },
  );

  test(
    'a common password is refused at sign-up; a sign-in from a browser the account never used is emailed, one from a known browser is not',
    { tag: '@desktop-only' },
    async ({ page, request, browser, baseURL }) => {
      const email = uniqueEmail('device');
      await page.goto('/signup/live');
      await waitForApp(page);
      await fillSignUp(page, email);
      // It meets the character rules, and is one of the first passwords any attacker tries.
      await page.getByLabel(EN.password, { exact: true }).fill('Password1!');
      await page.getByRole('button', { name: 'Create account' }).click();
      const weak = 'Password is too weak. Please use a stronger password.';
      await expect(page.getByRole('alert').filter({ hasText: weak })).toBeVisible();
      await expect(page.getByLabel(EN.password, { exact: true })).toHaveAccessibleDescription(new RegExp(weak));
      await page.getByLabel(EN.password, { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.goto(linkIn((await latestEmail(request, email, /verif/i)).text, '/auth/verify-email'));
      await expect(page).toHaveURL(/\/onboarding\/student$/);

      const signIn = async (on: Page) => {
        await on.getByLabel('Email address').fill(email);
        await on.getByLabel('Password').fill(PASSWORD);
        await on.getByRole('button', { name: 'Sign in' }).click();
        await expect(on).toHaveURL(/\/onboarding\/student$/);
      };
      // The browser that verified is a known device: signing in there again tells nobody.
      await openMenuIfCollapsed(page);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect(page).toHaveURL(/\/login$/);
      await signIn(page);

      const elsewhere = await browser.newContext({ baseURL });
      try {
        const other = await elsewhere.newPage();
        await recordRenderEvent(other);
        await other.goto('/login');
        await waitForApp(other);
        await signIn(other);
      } finally {
        await elsewhere.close();
      }
      const notice = await latestEmail(request, email, /New sign-in/);
      expect(linkIn(notice.text, '/forgot-password')).toBe('/forgot-password');
      expect(await emailCount(request, email, /New sign-in/)).toBe(1);
    },
  );

  test('the whole sign-up works in French', { tag: '@desktop-only' }, async ({ page, request }) => {
    const email = uniqueEmail('fr');
    await page.goto('/signup/live');
    await waitForApp(page);
    await chooseLanguage(page, 'Français');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Créez votre compte de candidat');
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    await expect(page.getByText('Veuillez remplir correctement tous les champs obligatoires')).toBeVisible();
    await fillSignUp(page, email, FR);
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    await expect(page.getByText(`Nous avons envoyé un lien de vérification à ${email}`)).toBeVisible();
    await expectNoAxeViolations(page);
    const mail = await latestEmail(request, email, /Vérifiez/);
    await page.goto(linkIn(mail.text, '/auth/verify-email'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Créez votre profil');

    // Signing out keeps the language; the account screens and their messages stay in French.
    await openMenuIfCollapsed(page);
    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Se connecter');
    await page.getByLabel('Adresse e-mail').fill(uniqueEmail('nobody'));
    await page.getByLabel('Mot de passe').fill(PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByText("Aucun compte trouvé. Veuillez d'abord vous inscrire.")).toBeVisible();
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Réinitialiser votre mot de passe');
    await page.getByLabel('Adresse e-mail').fill(email);
    await page.getByRole('button', { name: 'Envoyer le lien' }).click();
    await expect(page.getByText(`Si un compte existe pour ${email}`)).toBeVisible();
    const reset = await latestEmail(request, email, /Réinitialisez/);
    expect(reset.text).toContain('Aline');
  });
});

test(
  'the development mailbox lists sent emails and shows one',
  { tag: '@desktop-only' },
  async ({ page, request, baseURL }) => {
    const email = uniqueEmail('mailbox');
    await request.post('/api/v1/auth/resend-verification', { headers: { origin: baseURL! }, data: { email } });
    await page.goto('/forgot-password');
    await waitForApp(page);
    await page.getByLabel('Email address').fill('demo.staff@kaminuza.example');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect(page.getByRole('status')).toBeVisible();
    await latestEmail(request, 'demo.staff@kaminuza.example', /Reset your Kaminuza password/);

    await page.goto('/dev/mailbox');
    await waitForApp(page);
    const message = page.getByRole('link', { name: /Reset your Kaminuza password/ }).first();
    await expect(message).toBeVisible();
    await message.click();
    await expect(page.getByText(/\/reset-password\?token=/).first()).toBeVisible();
    await expectNoAxeViolations(page, { frames: false });
  },
);

test('the student area fits a phone in Kinyarwanda, with every section in reach', async ({ page, baseURL }) => {
  await page.context().addCookies([{ name: 'i18next', value: 'rw', url: baseURL! }]);
  await page.goto('/login');
  await waitForApp(page);
  await page.getByLabel('Aderesi imeri').fill('demo.student@kaminuza.example');
  await page.getByLabel("Ijambo ry'ibanga").fill('Kaminuza#2025');
  await page.getByRole('button', { name: 'Injira' }).click();
  await expect(page).toHaveURL(/\/home$/);
  const nav = page.getByRole('navigation', { name: "Igice cy'umunyeshuri" }).locator('visible=true');
  const inBar = ['Ahabanza', 'Shakisha', 'Ubusabe', 'Ubufasha'];
  const inMenuOnPhones = ['Umwirondoro', 'Igenamiterere'];
  const phone = test.info().project.name === 'mobile';
  if (phone) {
    for (const name of inBar) {
      const link = nav.getByRole('link', { name });
      await expect(link).toBeInViewport({ ratio: 1 });
      // Whole words on one line, inside the link: no label broken inside a word or spilling over another.
      const fit = await link.evaluate((el) => {
        // The lines of the label's text itself (a badge beside it is an element box, not a line of text).
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        const rects: DOMRect[] = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.parentElement?.closest('[aria-hidden="true"], .sr-only')) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          rects.push(...range.getClientRects());
        }
        const box = el.getBoundingClientRect();
        const lines = new Set(rects.map((rect) => Math.round(rect.top))).size;
        return { lines, inside: rects.every((rect) => rect.left >= box.left - 0.5 && rect.right <= box.right + 0.5) };
      });
      expect(fit, name).toEqual({ lines: 1, inside: true });
    }
    await page.locator('header summary').click();
  }
  for (const name of phone ? inMenuOnPhones : [...inBar, ...inMenuOnPhones]) {
    await expect(nav.getByRole('link', { name }).first()).toBeInViewport({ ratio: 1 });
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page);
});
