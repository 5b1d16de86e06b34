import type { AdmissionsReadiness } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { listCycles } from '../cycles/index.ts';
import { listForms } from '../forms/index.ts';
import { listCampuses, listPrograms } from '../programs/index.ts';
import { getProfile } from '../partners/index.ts';

/**
 * What students need before they can apply: an approved, published institution with a campus, a
 * program, a current cycle taking applications with programs open in it, and a form attached to it.
 */
export async function admissionsReadiness(db: Db, partnerId: string, now = new Date()): Promise<AdmissionsReadiness> {
  const profile = await getProfile(db, partnerId);
  const campuses = (await listCampuses(db, partnerId)).length;
  const programs = (await listPrograms(db, partnerId)).length;
  const current = (await listCycles(db, partnerId, { now })).find((cycle) => cycle.current);
  const forms = current ? (await listForms(db, partnerId)).filter((form) => form.cycle_id === current.id).length : 0;
  const currentCycle = current
    ? {
        id: current.id,
        name: current.name,
        accepting_applications: current.accepting_applications,
        open_programs: current.program_ids.length,
        forms,
      }
    : null;
  const approved = profile.status === 'approved';
  return {
    approved,
    published: profile.published,
    campuses,
    programs,
    current_cycle: currentCycle,
    ready:
      approved &&
      profile.published &&
      campuses > 0 &&
      programs > 0 &&
      currentCycle !== null &&
      currentCycle.accepting_applications &&
      currentCycle.open_programs > 0 &&
      currentCycle.forms > 0,
  };
}
