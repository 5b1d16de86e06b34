import { randomBytes } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { PASSWORD, uniqueEmail } from './institutions.ts';
import { latestEmail, linkIn } from './mailbox.ts';

const DEMO_ADMIN = { email: 'demo.admin@kaminuza.example', password: 'Kaminuza#2025' };

/** State-changing api calls must come from the site itself (Origin checked), as the browser's do. */
function originOf(page: Page): { origin: string } {
  return { origin: new URL(page.url() === 'about:blank' ? 'http://x' : page.url()).origin };
}

async function ok(response: Awaited<ReturnType<APIRequestContext['post']>>) {
  expect(response.ok(), `${response.url()} answered ${response.status()}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: unknown }).data;
}

export interface NewInstitution {
  email: string;
  password: string;
  name: string;
  partnerId: string;
}

/**
 * A new institution, registered, verified and approved through the api (the sign-up and review
 * screens have their own tests), with its first member (Admin, all permissions) signed in on `page`.
 * `request` acts as the demo admin.
 */
export async function signInNewInstitution(page: Page, request: APIRequestContext): Promise<NewInstitution> {
  await page.goto('/login');
  const headers = originOf(page);
  const email = uniqueEmail('setup');
  const name = `Lake Kivu Institute ${randomBytes(3).toString('hex')}`;
  await ok(
    await page.request.post('/api/v1/auth/sign-up/partner', {
      headers,
      data: {
        email,
        password: PASSWORD,
        institution_name: name,
        institution_type: 'private',
        year_established: 1998,
        contact_first_name: 'Diane',
        contact_last_name: 'Mukeshimana',
        job_title: 'Registrar',
        work_email: email,
        phone_country: 'RW',
        phone: '0788123456',
        city: 'Rubavu',
        country: 'RW',
        accept_terms: true,
        language: 'en',
      },
    }),
  );
  const link = linkIn((await latestEmail(request, email, /verif/i)).text, '/auth/verify-email');
  const code = new URL(link, 'http://x').searchParams.get('code');
  // Verifying signs the member in on the page's context.
  const member = (await ok(await page.request.post('/api/v1/auth/verify-email', { headers, data: { code } }))) as {
    partner_id: string;
  };

  await ok(await request.post('/api/v1/auth/sign-in/admin', { headers, data: DEMO_ADMIN }));
  await ok(await request.post(`/api/v1/admin/institutions/${member.partner_id}/approve`, { headers }));
  return { email, password: PASSWORD, name, partnerId: member.partner_id };
}
