import { apiData, expect, ownBrowser, test } from './fixtures.ts';
import { signIn } from './institutions.ts';
import { signInReadyInstitution } from './staff.ts';
import { signInNewStudent, STUDENT_PASSWORD } from './students.ts';

/*
 * Offline drafts: the same draft open on two devices, one of them offline. Its answers are kept on the
 * device; back online, its save meets the other device's, and the applicant is shown both versions,
 * question by question, and chooses. Reloads happen only online (the service worker has its own test).
 */
test(
  'a draft edited offline on one device and online on another: back online, both versions are shown and the chosen one is saved',
  { tag: '@desktop-only' },
  async ({ page, request, browser, baseURL }) => {
    test.slow();
    const institution = await signInReadyInstitution(page, request);
    const phone = await ownBrowser(browser, baseURL);
    const email = await signInNewStudent(phone, request, baseURL!);
    const started = await apiData<{ id: string }>(
      await phone.request.post(`/api/v1/partners/${institution.partnerId}/application`, {
        headers: { origin: baseURL! },
        data: { program_id: institution.programId, campus_id: institution.campusId },
      }),
    );
    const form = `/partners/${institution.partnerId}/application/form`;
    const saveStatus = (on: typeof page) => on.getByRole('status').filter({ hasText: /^(Sav|Offline|Not saved)/ });

    await phone.goto(form);
    await expect(phone.getByRole('heading', { level: 2, name: 'Section 1 of 2' })).toBeVisible();

    const laptop = await ownBrowser(browser, baseURL);
    await signIn(laptop, email, STUDENT_PASSWORD);
    await expect(laptop).toHaveURL(/\/home$/);
    await laptop.goto(form);
    await expect(laptop.getByLabel(/Your full name/)).toBeVisible();

    // The phone loses the connection; the form goes on, kept on the device, to the next section.
    await phone.context().setOffline(true);
    await phone.getByLabel(/Your full name/).fill('Aline on the bus');
    await expect(saveStatus(phone)).toHaveText('Saved on this device');
    await expect(phone.getByText(/^You are offline\./)).toBeVisible();
    await phone.getByRole('button', { name: 'Next' }).click();
    await expect(phone.getByRole('heading', { level: 2, name: 'Section 2 of 2' })).toBeVisible();
    await phone.getByLabel(/Why do you want to study with us/).fill('Written offline, between two towns.');

    // Meanwhile the laptop saves another name.
    await laptop.getByLabel(/Your full name/).fill('Aline Uwase (laptop)');
    await expect(saveStatus(laptop)).toHaveText(/^Saved \d/);

    // Back online: the phone's save is refused as stale, and both versions are shown.
    await phone.context().setOffline(false);
    const conflict = phone.getByRole('dialog', {
      name: 'This application was changed in another tab or on another device.',
    });
    await expect(conflict).toBeVisible();
    const name = conflict.getByRole('group', { name: 'Your full name' });
    await expect(name.getByRole('radio', { name: /On this device\s*Aline on the bus/ })).toBeChecked();
    const why = conflict.getByRole('group', { name: 'Why do you want to study with us?' });
    await expect(why.getByRole('radio', { name: /On this device\s*Written offline/ })).toBeChecked();
    await expect(why.getByRole('radio', { name: /Saved elsewhere\s*Not answered/ })).toBeVisible();

    // The laptop's name, the phone's motivation.
    await name.getByRole('radio', { name: /Saved elsewhere\s*Aline Uwase \(laptop\)/ }).check();
    await conflict.getByRole('button', { name: 'Save my choices' }).click();
    await expect(conflict).toBeHidden();
    await expect(saveStatus(phone)).toHaveText(/^Saved \d/);

    const saved = await apiData<{ answers: Record<string, unknown>; current_section_index: number }>(
      await phone.request.get(`/api/v1/applications/${started.id}`),
    );
    expect(saved.answers).toMatchObject({
      full_name: 'Aline Uwase (laptop)',
      why: 'Written offline, between two towns.',
    });
    expect(saved.current_section_index).toBe(1);

    // Reopened (online), the phone is where it was, with the chosen answers.
    await phone.reload();
    await expect(phone.getByRole('heading', { level: 2, name: 'Section 2 of 2' })).toBeVisible();
    await expect(phone.getByLabel(/Why do you want to study with us/)).toHaveValue(
      'Written offline, between two towns.',
    );
  },
);

test(
  'answers typed with no connection survive a reload while still offline and reach the server once back online; a reload offline shows the last save',
  { tag: '@desktop-only' },
  async ({ page, request, browser, baseURL }) => {
    test.slow();
    const institution = await signInReadyInstitution(page, request);
    // This browser keeps the service worker (the suite blocks it elsewhere): the reload offline needs it.
    const phone = await ownBrowser(browser, baseURL, { serviceWorkers: 'allow' });
    await signInNewStudent(phone, request, baseURL!);
    const started = await apiData<{ id: string }>(
      await phone.request.post(`/api/v1/partners/${institution.partnerId}/application`, {
        headers: { origin: baseURL! },
        data: { program_id: institution.programId, campus_id: institution.campusId },
      }),
    );
    const form = `/partners/${institution.partnerId}/application/form`;
    await phone.goto(form);
    await expect(phone.getByRole('heading', { level: 2, name: 'Section 1 of 2' })).toBeVisible();
    await phone.waitForFunction(() => navigator.serviceWorker.controller !== null);
    // Once under the worker, online: the form and its draft are kept for offline use.
    await phone.reload();
    await expect(phone.getByRole('heading', { level: 2, name: 'Section 1 of 2' })).toBeVisible();

    // Three answers with no connection, across both sections.
    await phone.context().setOffline(true);
    await phone.getByLabel(/Your full name/).fill('Aline in the cyber café');
    await phone.getByLabel(/Your phone number/).fill('+250 788 123 456');
    await phone.getByRole('button', { name: 'Next' }).click();
    await expect(phone.getByRole('heading', { level: 2, name: 'Section 2 of 2' })).toBeVisible();
    await phone.getByLabel(/Why do you want to study with us/).fill('Typed while the network was down.');
    await expect(phone.getByText('Saved on this device', { exact: true })).toBeVisible();

    // Reloaded while still offline: the app opens from the device, on the same section, with the answers.
    await phone.reload();
    await expect(phone.getByRole('heading', { level: 2, name: 'Section 2 of 2' })).toBeVisible();
    await expect(phone.getByLabel(/Why do you want to study with us/)).toHaveValue('Typed while the network was down.');
    await phone.getByRole('button', { name: 'Previous' }).click();
    await expect(phone.getByLabel(/Your full name/)).toHaveValue('Aline in the cyber café');

    // Back online, they reach the server.
    await phone.context().setOffline(false);
    await expect
      .poll(
        async () =>
          (
            await apiData<{ answers: Record<string, unknown> }>(
              await phone.request.get(`/api/v1/applications/${started.id}`),
            )
          ).answers,
        { timeout: 20_000 },
      )
      .toMatchObject({ full_name: 'Aline in the cyber café', why: 'Typed while the network was down.' });

    // An answer saved online, then a reload offline: the form shows it, not the older draft the worker
    // read when the page last opened online.
    const why = phone.getByLabel(/Why do you want to study with us/);
    await phone.getByRole('button', { name: 'Next' }).click();
    await why.fill('Changed once back online.');
    await expect(phone.getByRole('status').filter({ hasText: /^Saved \d/ })).toBeVisible();
    await phone.context().setOffline(true);
    await phone.reload();
    await expect(why).toHaveValue('Changed once back online.');
    await phone.getByRole('button', { name: 'Previous' }).click();
    await expect(phone.getByLabel(/Your full name/)).toHaveValue('Aline in the cyber café');
  },
);
