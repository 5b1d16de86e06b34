import { describe, expect, it } from 'vitest';
import type { ApplyContext, ApplicationSummary } from '@kaminuza/shared';
import { resolveApplicationRoute, resumePosition, startDestination, viewPath } from './application-routes.ts';

const PARTNER = '11111111-1111-4111-8111-111111111111';

describe('application routes', () => {
  it('reads the view and institution from either area', () => {
    expect(resolveApplicationRoute('partner', PARTNER, '')).toEqual({ view: 'start', partnerId: PARTNER });
    expect(resolveApplicationRoute('partner', PARTNER, 'form')).toEqual({ view: 'form', partnerId: PARTNER });
    expect(resolveApplicationRoute('area', PARTNER, 'submitted/')).toEqual({ view: 'submitted', partnerId: PARTNER });
  });

  it('sends unknown subpaths and missing or malformed institutions to the not-found view', () => {
    expect(resolveApplicationRoute('partner', PARTNER, 'elsewhere').view).toBe('not-found');
    expect(resolveApplicationRoute('area', null, 'form')).toEqual({ view: 'not-found', partnerId: null });
    expect(resolveApplicationRoute('area', 'not-a-uuid', 'closed').view).toBe('not-found');
    expect(resolveApplicationRoute('partner', 'x', '').view).toBe('not-found');
    expect(resolveApplicationRoute('area', null, 'not-found').view).toBe('not-found');
  });

  it('links within the area a view was opened in', () => {
    expect(viewPath('partner', PARTNER, 'form')).toBe(`/partners/${PARTNER}/application/form`);
    expect(viewPath('area', PARTNER, 'closed')).toBe(`/application/closed?partner=${PARTNER}`);
    expect(viewPath('area', PARTNER, 'start')).toBe(`/partners/${PARTNER}/application`);
  });

  it('sends the start screen to what the student already did', () => {
    const cycle = {
      id: PARTNER,
      name: 'Intake',
      opens_on: '2026-01-01',
      closes_on: '2026-12-31',
      decision_release_on: null,
      timezone: 'Africa/Kigali',
      accepting_applications: true,
    };
    const base = { cycle, application: null } as unknown as ApplyContext;
    const app = (status: ApplicationSummary['status']) => ({ status }) as ApplicationSummary;
    expect(startDestination(base)).toBe('start');
    expect(startDestination({ ...base, application: app('in_progress') })).toBe('form');
    expect(startDestination({ ...base, application: app('submitted') })).toBe('submitted');
    expect(startDestination({ ...base, cycle: null })).toBe('closed');
    expect(startDestination({ ...base, cycle: { ...cycle, accepting_applications: false } })).toBe('closed');
    expect(
      startDestination({ ...base, cycle: { ...cycle, accepting_applications: false }, application: app('submitted') }),
    ).toBe('submitted');
  });

  it('resumes a draft where it was left, within its form', () => {
    expect(resumePosition(0, 1, 3, true)).toEqual({ step: 0, section: 1 });
    expect(resumePosition(0, 9, 3, true)).toEqual({ step: 0, section: 2 });
    expect(resumePosition(1, 0, 3, false)).toEqual({ step: 2, section: 0 });
    expect(resumePosition(7, 0, 0, true)).toEqual({ step: 2, section: 0 });
  });
});
