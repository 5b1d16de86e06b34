import { describe, expect, it } from 'vitest';
import { cycleAcceptsApplications, dayInTimeZone } from './admissions.ts';

const cycle = { status: 'open', opens_on: '2026-09-01', closes_on: '2026-09-30' } as const;

describe('cycleAcceptsApplications', () => {
  it('accepts from the first minute of the opening day to the last minute of the closing day, in the time zone', () => {
    // Kigali is UTC+2 all year.
    expect(cycleAcceptsApplications(cycle, 'Africa/Kigali', new Date('2026-08-31T21:59:59Z'))).toBe(false);
    expect(cycleAcceptsApplications(cycle, 'Africa/Kigali', new Date('2026-08-31T22:00:00Z'))).toBe(true);
    expect(cycleAcceptsApplications(cycle, 'Africa/Kigali', new Date('2026-09-30T21:59:59Z'))).toBe(true);
    expect(cycleAcceptsApplications(cycle, 'Africa/Kigali', new Date('2026-09-30T22:00:00Z'))).toBe(false);
  });

  it('judges the same instant differently on either side of the date line', () => {
    const instant = new Date('2026-09-30T12:00:00Z');
    // Already 1 October on Kiritimati (UTC+14); still 30 September in Pago Pago (UTC-11).
    expect(cycleAcceptsApplications(cycle, 'Pacific/Kiritimati', instant)).toBe(false);
    expect(cycleAcceptsApplications(cycle, 'Pacific/Pago_Pago', instant)).toBe(true);
    expect(cycleAcceptsApplications(cycle, 'UTC', instant)).toBe(true);
  });

  it('follows daylight saving time', () => {
    const march = { status: 'open', opens_on: '2026-03-30', closes_on: '2026-04-10' } as const;
    // Paris is UTC+2 from 29 March 2026: 22:30 UTC on 29 March is already the 30th there.
    expect(cycleAcceptsApplications(march, 'Europe/Paris', new Date('2026-03-29T22:30:00Z'))).toBe(true);
    expect(cycleAcceptsApplications(march, 'Europe/London', new Date('2026-03-29T22:30:00Z'))).toBe(false);
  });

  it('takes nothing while the cycle is a draft or closed, whatever the date', () => {
    const now = new Date('2026-09-15T12:00:00Z');
    expect(cycleAcceptsApplications({ ...cycle, status: 'draft' }, 'UTC', now)).toBe(false);
    expect(cycleAcceptsApplications({ ...cycle, status: 'closed' }, 'UTC', now)).toBe(false);
    expect(cycleAcceptsApplications(cycle, 'UTC', now)).toBe(true);
  });

  it('accepts a one-day cycle for that whole day', () => {
    const oneDay = { status: 'open', opens_on: '2026-01-05', closes_on: '2026-01-05' } as const;
    expect(cycleAcceptsApplications(oneDay, 'UTC', new Date('2026-01-05T00:00:00Z'))).toBe(true);
    expect(cycleAcceptsApplications(oneDay, 'UTC', new Date('2026-01-05T23:59:59Z'))).toBe(true);
    expect(cycleAcceptsApplications(oneDay, 'UTC', new Date('2026-01-06T00:00:00Z'))).toBe(false);
  });
});

describe('dayInTimeZone', () => {
  it('gives the local calendar day, and counts an unknown zone as UTC', () => {
    expect(dayInTimeZone(new Date('2026-12-31T23:30:00Z'), 'Africa/Nairobi')).toBe('2027-01-01');
    expect(dayInTimeZone(new Date('2026-12-31T23:30:00Z'), 'Not/AZone')).toBe('2026-12-31');
  });

  it('turns the day at the zone’s midnight, asked again within the same minute or not', () => {
    expect(dayInTimeZone(new Date('2026-12-31T20:59:59.999Z'), 'Africa/Nairobi')).toBe('2026-12-31');
    expect(dayInTimeZone(new Date('2026-12-31T20:59:00.000Z'), 'Africa/Nairobi')).toBe('2026-12-31');
    expect(dayInTimeZone(new Date('2026-12-31T21:00:00.000Z'), 'Africa/Nairobi')).toBe('2027-01-01');
    expect(dayInTimeZone(new Date('2026-12-31T21:00:59.000Z'), 'Africa/Nairobi')).toBe('2027-01-01');
    // Another zone in the same minute has its own answer.
    expect(dayInTimeZone(new Date('2026-12-31T21:00:30.000Z'), 'Africa/Kigali')).toBe('2026-12-31');
    expect(dayInTimeZone(new Date('2026-12-31T20:59:30.000Z'), 'Africa/Nairobi')).toBe('2026-12-31');
  });
});
