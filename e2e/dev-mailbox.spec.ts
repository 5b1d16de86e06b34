import type { Response } from '@playwright/test';
import { expect, test, waitForApp } from './fixtures.ts';
import { latestEmail } from './mailbox.ts';
import { loadPublicPage, recordProblems } from './page-problems.ts';
import { signUpStudent } from './students.ts';

// A trace records each frame by running a script in it, which the preview's sandbox refuses and logs.
test.use({ trace: 'off' });

test(
  'the development mailbox shows a message without a console error',
  { tag: '@desktop-only' },
  async ({ page, request, baseURL }) => {
    const problems = recordProblems(page);
    const email = await signUpStudent(request, baseURL!, 'mailbox-console');
    await latestEmail(request, email, /verif/i);

    await loadPublicPage(page, '/dev/mailbox');
    // The preview is checked by what the server answered: reading inside a frame that runs no script
    // would itself log a refusal.
    const preview = (response: Response) => /\/api\/v1\/dev\/mailbox\/[^/]+\/html$/.test(response.url());
    const opened = page.waitForResponse(preview);
    await page.getByRole('link', { name: new RegExp(`^Verify your email address To: ${email}`) }).click();
    expect(await (await opened).text()).toMatch(/verif/i);
    await page.waitForLoadState('networkidle');
    // A fresh load of the open message too.
    const reopened = page.waitForResponse(preview);
    await page.reload();
    await waitForApp(page);
    expect((await reopened).status()).toBe(200);
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
  },
);
