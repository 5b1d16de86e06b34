import { apiData, expect, expectAccessibleAndFitting, ownBrowser, test } from './fixtures.ts';
import { latestEmail } from './mailbox.ts';
import { day, setUpReview, signInReadyInstitution, submitApplication } from './staff.ts';
import { signInNewStudent } from './students.ts';

/*
 * A place that opens (issue 26, ADR 052): the program has one place; it is offered with a reply deadline
 * and two applicants wait, ranked by staff. The offer goes unanswered past its deadline (the development
 * clock moves that one offer's deadline, then the lapse pass runs as the minute job would): it lapses for
 * both sides, the first applicant on the waiting list is proposed, and staff offer them the place.
 */

test('an offer lapses past its deadline and the first on the waiting list is offered the place', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.slow();
  const institution = await signInReadyInstitution(page, request);
  await setUpReview(
    page,
    institution,
    { letter: '', rubric: [{ id: 'overall', name: 'Overall', weight: 1 }] },
    baseURL!,
  );
  const headers = { origin: baseURL! };
  const base = `/api/v1/partners/${institution.partnerId}`;

  // Three applicants (their applications sent through the api: the applying screens have their own tests).
  const applicants = [];
  for (const name of ['offered', 'second', 'first']) {
    const browserPage = await ownBrowser(browser, baseURL);
    const email = await signInNewStudent(browserPage, request, baseURL!);
    const submission = await submitApplication(browserPage, institution, baseURL!);
    applicants.push({ name, page: browserPage, email, submission });
  }
  const [offered, second, first] = applicants as [
    (typeof applicants)[number],
    (typeof applicants)[number],
    (typeof applicants)[number],
  ];

  // One place; an offer with a deadline for the first applicant, the two others waitlisted (released
  // through the api: the decision panel's screens have their own tests).
  await apiData(
    await page.request.put(`${base}/cycles/${institution.cycleId}/places`, {
      headers,
      data: { places: [{ program_id: institution.programId, campus_id: institution.campusId, places: 1 }] },
    }),
  );
  const decide = (id: string, data: object) =>
    page.request.put(`${base}/review/submissions/${id}/decision`, { headers, data });
  await apiData(await decide(offered.submission.id, { state: 'accepted', reply_by: day(7) }));
  await apiData(await decide(second.submission.id, { state: 'waitlisted' }));
  await apiData(await decide(first.submission.id, { state: 'waitlisted' }));
  await apiData(
    await page.request.post(`${base}/decisions/release`, {
      headers,
      data: { submission_ids: applicants.map((applicant) => applicant.submission.id), when: 'now' },
    }),
  );

  // Staff rank the waiting list: the third applicant first.
  await page.goto('/partner/cycles');
  await page
    .getByRole('button', { name: /^Places in / })
    .first()
    .click();
  const places = page.getByRole('dialog', { name: /^Places in / });
  await places.getByRole('button', { name: 'Waiting list' }).click();
  const waiting = places.getByRole('list', {
    name: `Waiting list: ${institution.programName} — Rubavu Lakeside Campus`,
  });
  await expect(waiting.getByRole('listitem')).toHaveCount(2);
  // Unranked, they wait in the order they applied; the later one is moved up.
  await expect(waiting.getByRole('listitem').nth(1)).toContainText(first.submission.reference);
  await waiting
    .getByRole('listitem')
    .filter({ hasText: first.submission.reference })
    .getByRole('button', { name: /^Move .* up$/ })
    .click();
  await places.getByRole('button', { name: 'Save the order' }).click();
  await expect(places.getByText('Order saved: the first is proposed when a place opens.')).toBeVisible();
  await expect(waiting.getByRole('listitem').first()).toContainText(first.submission.reference);
  await expectAccessibleAndFitting(page);
  await places.getByRole('button', { name: 'Close' }).click();

  // The offer is not answered; its deadline passes.
  await offered.page.goto(`/partners/${institution.partnerId}/application/decision`);
  await expect(offered.page.getByText(/^Do you accept this offer\? Reply by /)).toBeVisible();
  const moved = await apiData<{ lapsed: number }>(
    await request.post(`/api/v1/dev/offers/${offered.submission.id}/pass-deadline`, { headers }),
  );
  expect(moved.lapsed).toBe(1);

  // Lapsed, for the applicant: no answer possible any more, and an email says so.
  await offered.page.reload();
  await expect(offered.page.getByText(/has passed, so it has lapsed\.$/)).toBeVisible();
  await expect(offered.page.getByRole('button', { name: 'Accept the offer' })).toBeHidden();
  await latestEmail(request, offered.email, /has lapsed/);
  await expectAccessibleAndFitting(offered.page);

  // And for staff.
  await page.goto(`/partner/applications/${offered.submission.id}?tab=decision`);
  await expect(page.getByText(/^No answer: the offer lapsed on /)).toBeVisible();

  // The first on the waiting list (the one staff moved up) is proposed; staff offer the place.
  await page.goto(`/partner/applications/${first.submission.id}?tab=decision`);
  await expect(page.getByText(/^A place opened on .*: this applicant is next on the waiting list/)).toBeVisible();
  await expectAccessibleAndFitting(page);
  await page.getByRole('button', { name: 'Offer a place' }).click();
  await page
    .getByRole('dialog', { name: 'Offer this applicant a place?' })
    .getByRole('button', { name: 'Offer a place' })
    .click();
  await expect(page.getByText(/^Decision changed to Accepted and released\./)).toBeVisible();
  // The other waitlisted applicant was not proposed.
  await page.goto(`/partner/applications/${second.submission.id}?tab=decision`);
  await expect(page.getByText('A place has opened?')).toBeVisible();
  await expect(page.getByText(/this applicant is next on the waiting list/)).toBeHidden();

  // The applicant offered the place reads it, with the email the spec promises.
  await latestEmail(request, first.email, /A place has opened for you/);
  await first.page.goto(`/partners/${institution.partnerId}/application/decision`);
  await expect(first.page.getByRole('button', { name: 'Accept the offer' })).toBeVisible();
  await expectAccessibleAndFitting(first.page);
  for (const applicant of applicants) await applicant.page.context().close();
});
