import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { useTestApp } from '../test/app.ts';
import { signInAs } from '../test/auth.ts';
import { MIGRATIONS_FOLDER } from './client.ts';
import { partnerSettings } from './schema/index.ts';
import { getSettings } from '../modules/partner-settings/partner-settings.service.ts';

const testApp = useTestApp();

/** Migration 0018, as drizzle runs it (one statement). */
const migration = readFileSync(join(MIGRATIONS_FOLDER, '0018_fee_per_currency.sql'), 'utf8');

describe('migration 0018: fees per currency', () => {
  it('gives each stored single fee its option in minor units, payable by card; no fee, no option', async () => {
    const cases: Array<[number, string, unknown]> = [
      [100, 'USD', [{ currency: 'USD', amount: 10_000, channels: ['card'] }]],
      [25.5, 'KES', [{ currency: 'KES', amount: 2_550, channels: ['card'] }]],
      [130_000, 'RWF', [{ currency: 'RWF', amount: 130_000, channels: ['card'] }]],
      [12.345, 'BHD', [{ currency: 'BHD', amount: 12_345, channels: ['card'] }]],
      [0, 'USD', []],
    ];
    const partnerIds: string[] = [];
    for (const [fee, currency] of cases) {
      const staff = await signInAs(testApp.app, 'staff');
      const { admissions } = await getSettings(testApp.database.db, staff.partnerId!);
      const { application_fees: _dropped, ...legacy } = admissions;
      await testApp.database.db
        .insert(partnerSettings)
        .values({
          partner_id: staff.partnerId!,
          general: {},
          theme: {},
          admissions: { ...legacy, application_fee: fee, application_fee_currency: currency },
        })
        .onConflictDoUpdate({
          target: partnerSettings.partner_id,
          set: { admissions: { ...legacy, application_fee: fee, application_fee_currency: currency } },
        });
      partnerIds.push(staff.partnerId!);
    }

    await testApp.database.db.execute(sql.raw(migration));

    for (const [index, [, , expected]] of cases.entries()) {
      const [row] = await testApp.database.db
        .select({ admissions: partnerSettings.admissions })
        .from(partnerSettings)
        .where(eq(partnerSettings.partner_id, partnerIds[index]!));
      expect(row!.admissions.application_fees).toEqual(expected);
    }
    // Run again, it changes nothing (the options are there now).
    await testApp.database.db.execute(sql.raw(migration));
    const [again] = await testApp.database.db
      .select({ admissions: partnerSettings.admissions })
      .from(partnerSettings)
      .where(eq(partnerSettings.partner_id, partnerIds[0]!));
    expect(again!.admissions.application_fees).toEqual(cases[0]![2]);
  });
});
