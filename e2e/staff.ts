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

export interface ReadyInstitution extends NewInstitution {
  campusId: string;
  programId: string;
  programName: string;
  cycleId: string;
  formId: string;
}

/** A day `offset` days from today (UTC), as the cycle and deadline fields take it (yyyy-mm-dd). */
export function day(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A new institution students can apply to, set up through the api by its Admin (signed in on `page`): a
 * campus, a program there, a current cycle open with that program (closed: its closing day is past), a
 * two-section form for the cycle, published. The setup screens have their own tests.
 */
export async function signInReadyInstitution(
  page: Page,
  request: APIRequestContext,
  { closed = false }: { closed?: boolean } = {},
): Promise<ReadyInstitution> {
  const institution = await signInNewInstitution(page, request);
  const headers = originOf(page);
  const base = `/api/v1/partners/${institution.partnerId}`;
  const campus = (await ok(
    await page.request.post(`${base}/campuses`, {
      headers,
      data: { name: 'Rubavu Lakeside Campus', address: 'Avenue du Lac 12', city: 'Rubavu', country: 'RW' },
    }),
  )) as { id: string };
  const programName = 'BSc Environmental Science';
  const program = (await ok(
    await page.request.post(`${base}/programs`, {
      headers,
      data: {
        name: programName,
        level: 'undergraduate',
        field: 'natural_sciences',
        duration_months: 48,
        language: 'en',
        tuition_amount: 1800,
        tuition_currency: 'USD',
        requirements: 'Secondary school certificate with science subjects.',
        seats: 60,
        campus_ids: [campus.id],
      },
    }),
  )) as { id: string };
  const cycle = (await ok(
    await page.request.post(`${base}/cycles`, {
      headers,
      data: {
        name: closed ? 'Intake 2026 (closed)' : 'Intake 2026/27',
        opens_on: day(closed ? -60 : -1),
        closes_on: day(closed ? -2 : 60),
        decision_release_on: null,
        status: 'open',
        program_ids: [program.id],
      },
    }),
  )) as { id: string };
  await ok(await page.request.put(`${base}/settings/current-cycle`, { headers, data: { cycle_id: cycle.id } }));
  const text = (en: string) => ({ en });
  const form = (await ok(
    await page.request.post(`${base}/forms`, {
      headers,
      data: {
        name: 'Application 2026/27',
        description: '',
        cycle_id: cycle.id,
        program_id: null,
        sections: [
          {
            id: 'about-you',
            order: 0,
            title: text('About you'),
            description: {},
            questions: [
              {
                id: 'full_name',
                order: 0,
                type: 'short_text',
                required: true,
                label: text('Your full name'),
                help: {},
              },
              {
                id: 'phone',
                order: 1,
                type: 'phone',
                required: false,
                label: text('Your phone number'),
                help: {},
                profile_field: 'phone',
              },
            ],
          },
          {
            id: 'motivation',
            order: 1,
            title: text('Motivation'),
            description: {},
            questions: [
              {
                id: 'why',
                order: 0,
                type: 'long_text',
                word_limit: 300,
                required: true,
                label: text('Why do you want to study with us?'),
                help: {},
              },
            ],
          },
        ],
      },
    }),
  )) as { id: string };
  await ok(await page.request.patch(`${base}/profile`, { headers, data: { published: true } }));
  return {
    ...institution,
    campusId: campus.id,
    programId: program.id,
    programName,
    cycleId: cycle.id,
    formId: form.id,
  };
}

export interface ReviewSetup {
  letter: string;
  stages?: { id: string; name: string }[];
  rubric: { id: string; name: string; weight: number }[];
}

/**
 * The institution's review set up through the api by its member on `staff` (the settings screens have their
 * own tests): no application fee, so an applicant submits at once, no automatic decisions, the letter's
 * template, the custom stages and the rubric.
 */
export async function setUpReview(staff: Page, institution: ReadyInstitution, review: ReviewSetup, baseURL: string) {
  await ok(
    await staff.request.put(`/api/v1/partners/${institution.partnerId}/settings/admissions`, {
      headers: { origin: baseURL },
      data: {
        auto_accept_enabled: false,
        auto_accept_threshold: 90,
        auto_reject_enabled: false,
        auto_reject_threshold: 30,
        application_fee: 0,
        application_fee_currency: 'USD',
        admission_letter: {
          template: review.letter,
          signature_name: 'Diane Mukeshimana',
          signature_title: 'Registrar',
          signature_image: null,
        },
        custom_stages: review.stages ?? [],
        rubric: review.rubric,
        blind_review: false,
      },
    }),
  );
}

/** The student signed in on `student` starts an application to the institution's program and submits it. */
export async function submitApplication(
  student: Page,
  institution: ReadyInstitution,
  baseURL: string,
): Promise<{ id: string; reference: string }> {
  const headers = { origin: baseURL };
  const application = (await ok(
    await student.request.post(`/api/v1/partners/${institution.partnerId}/application`, {
      headers,
      data: { program_id: institution.programId, campus_id: institution.campusId },
    }),
  )) as { id: string; version: number };
  return (await ok(
    await student.request.post(`/api/v1/applications/${application.id}/submit`, {
      headers: { ...headers, 'idempotency-key': `e2e-${randomBytes(8).toString('hex')}` },
      data: {
        version: application.version,
        answers: { full_name: 'Amani Uwase', why: 'I want to study the lakes of my country.' },
      },
    }),
  )) as { id: string; reference: string };
}
