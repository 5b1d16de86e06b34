import { APPLICATION_STEPS, type ApplyContext } from '@kaminuza/shared';
import { APPLICATION_VIEWS, paths, type ApplicationView } from '../../../lib/paths.ts';

/*
 * Which application view an address shows. The same views live under /partners/{id}/application (the
 * institution in the path) and under /application (the institution in ?partner=); both are built here so
 * a screen links within the area it was opened in.
 */

export type ApplicationArea = 'partner' | 'area';
/** 'start' is the start screen (/partners/{id}/application itself). */
export type ResolvedView = ApplicationView | 'start';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isView = (value: string): value is ApplicationView => (APPLICATION_VIEWS as readonly string[]).includes(value);

/**
 * The view and institution of an address. `rest` is what follows /partners/{id}/application or
 * /application. An unknown subpath, a missing or malformed institution id → the not-found view.
 */
export function resolveApplicationRoute(
  area: ApplicationArea,
  partnerId: string | null,
  rest: string,
): { view: ResolvedView; partnerId: string | null } {
  const id = partnerId && UUID.test(partnerId) ? partnerId : null;
  const sub = rest.replace(/^\/+|\/+$/g, '');
  if (sub === '' && area === 'partner') return { view: id ? 'start' : 'not-found', partnerId: id };
  if (!isView(sub)) return { view: 'not-found', partnerId: id };
  if (id === null && sub !== 'not-found') return { view: 'not-found', partnerId: null };
  return { view: sub, partnerId: id };
}

/** The address of a view in the given area. */
export function viewPath(area: ApplicationArea, partnerId: string, view: ResolvedView): string {
  if (view === 'start') return paths.student.application(partnerId);
  return area === 'partner' ? paths.student.applicationStep(partnerId, view) : paths.student.areaStep(view, partnerId);
}

/** The not-found view, in the area it was reached from (the area's own when the institution is unknown). */
export function notFoundPath(area: ApplicationArea, partnerId: string | null): string {
  if (partnerId) return viewPath(area, partnerId, 'not-found');
  return `${paths.student.applications}/not-found`;
}

/**
 * Where the start screen sends the student: what they already did decides first (a submitted
 * application, a closed cycle, a draft to continue), else they choose a program and start.
 */
export function startDestination(context: ApplyContext): ApplicationView | 'start' {
  const application = context.application;
  if (application?.status === 'submitted') return 'submitted';
  if (!context.cycle?.accepting_applications) return 'closed';
  if (application) return 'form';
  return 'start';
}

/** Where a reopened draft resumes: its step and section, kept within the form it has now. */
export function resumePosition(
  currentStep: number,
  currentSectionIndex: number,
  sectionCount: number,
  feeDue: boolean,
): { step: number; section: number } {
  const last = APPLICATION_STEPS.length - 1;
  let step = Math.min(Math.max(0, currentStep), last);
  if (step === APPLICATION_STEPS.indexOf('payment') && !feeDue) step = last;
  const section = Math.min(Math.max(0, currentSectionIndex), Math.max(0, sectionCount - 1));
  return { step, section };
}
