import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { defaultPartnerSettings } from '@kaminuza/shared';
import { cycles, partnerSettings, partners } from '../../db/schema/index.ts';
import { seedDemoAdmissions } from '../../seed/admissions.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs } from '../../test/auth.ts';

const testApp = useTestApp();

const readiness = async (headers: { cookie: string }, partnerId: string) => {
  const response = await testApp.app.inject({ method: 'GET', url: `/api/v1/partners/${partnerId}/readiness`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

describe('GET /partners/:partnerId/readiness', () => {
  it('is ready once published with a campus, a program and a current open cycle with a form', async () => {
    const member = await signInAs(testApp.app, 'staff', { permissions: [] });
    const partnerId = member.partnerId!;
    await testApp.database.db.insert(partnerSettings).values({ partner_id: partnerId, ...defaultPartnerSettings() });

    expect(await readiness(member.headers, partnerId)).toEqual({
      approved: true,
      published: false,
      campuses: 0,
      programs: 0,
      current_cycle: null,
      ready: false,
    });

    await seedDemoAdmissions(testApp.database.db, partnerId);
    const set = await readiness(member.headers, partnerId);
    expect(set).toMatchObject({
      campuses: 2,
      programs: 5,
      current_cycle: { accepting_applications: true, open_programs: 5, forms: 1 },
      ready: false,
    });

    await testApp.database.db.update(partners).set({ published: true }).where(eq(partners.id, partnerId));
    expect(await readiness(member.headers, partnerId)).toMatchObject({ published: true, ready: true });

    await testApp.database.db.update(cycles).set({ status: 'closed' }).where(eq(cycles.partner_id, partnerId));
    expect(await readiness(member.headers, partnerId)).toMatchObject({
      current_cycle: { accepting_applications: false },
      ready: false,
    });
  });

  it('answers only the institution’s own members', async () => {
    const member = await signInAs(testApp.app, 'staff');
    const url = `/api/v1/partners/${member.partnerId}/readiness`;
    await expectAccess(testApp.app, { method: 'GET', url }, { anonymous: 401, student: 403, admin: 403, staff: 404 });
  });
});
