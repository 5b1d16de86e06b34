import { ExamSystemSchema, type ExamSystem } from './schema.ts';
import waecWassce from './systems/waec_wassce.json' with { type: 'json' };
import necoSsce from './systems/neco_ssce.json' with { type: 'json' };
import knecKcse from './systems/knec_kcse.json' with { type: 'json' };
import rwandaAlevel from './systems/rwanda_alevel.json' with { type: 'json' };
import unebUace from './systems/uneb_uace.json' with { type: 'json' };
import unebUce from './systems/uneb_uce.json' with { type: 'json' };
import nectaAcsee from './systems/necta_acsee.json' with { type: 'json' };
import nectaCsee from './systems/necta_csee.json' with { type: 'json' };
import zaNsc from './systems/za_nsc.json' with { type: 'json' };
import baccalaureat from './systems/baccalaureat.json' with { type: 'json' };
import cameroonGceOl from './systems/cameroon_gce_ol.json' with { type: 'json' };
import cameroonGceAl from './systems/cameroon_gce_al.json' with { type: 'json' };
import ethiopiaEsslce from './systems/ethiopia_esslce.json' with { type: 'json' };

export * from './schema.ts';
export * from './results.ts';
export * from './requirements.ts';
export * from './eligibility.ts';
export * from './validate.ts';
export * from './sittings.ts';
export * from './eligibility-view.ts';

/** Every examination system's file (./systems), in the order the applicant's list shows them. */
export const EXAM_SYSTEM_FILES: readonly unknown[] = [
  waecWassce,
  necoSsce,
  knecKcse,
  rwandaAlevel,
  unebUace,
  unebUce,
  nectaAcsee,
  nectaCsee,
  zaNsc,
  baccalaureat,
  cameroonGceOl,
  cameroonGceAl,
  ethiopiaEsslce,
];

let parsed: readonly ExamSystem[] | null = null;

/** The examination systems, read from their files once (the data test holds every file to the schema). */
export function examSystems(): readonly ExamSystem[] {
  parsed ??= EXAM_SYSTEM_FILES.map((file) => ExamSystemSchema.parse(file));
  return parsed;
}

export function examSystem(id: string): ExamSystem | null {
  return examSystems().find((system) => system.id === id) ?? null;
}
