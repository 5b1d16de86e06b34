import {
  CAMPUS_SETTINGS,
  INSTITUTION_TYPES,
  STUDY_FIELDS,
  type InstitutionType,
  type StudyField,
} from '@kaminuza/shared';
import {
  AFRICAN_COUNTRY_CODES,
  COUNTRIES,
  COUNTRY_CODES,
  SIZE_LARGE_ABOVE,
  SIZE_SMALL_BELOW,
  demoPhone,
  sizeForEnrollment,
  slugify,
  type CountryCode,
} from './reference.ts';
import type { SeedUniversity } from './universities.data.ts';

/** mulberry32: a small, fast, well-distributed 32-bit PRNG, so the same seed gives the same catalogue. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIELD_LABELS: Record<StudyField, string> = {
  technology: 'Technology',
  business: 'Business',
  medicine: 'Health Sciences',
  engineering: 'Engineering',
  arts_humanities: 'Arts and Humanities',
  natural_sciences: 'Natural Sciences',
  social_sciences: 'Social Sciences',
  law: 'Law',
  education: 'Education',
};

const EPONYMS = [
  'Great Lakes',
  'Rift Valley',
  'Sahel',
  'Atlantic',
  'Nile Valley',
  'Kilimanjaro',
  'Baobab',
  'Savanna',
  'Horizon',
  'Unity',
  'Pan-African',
  'Lakeside',
  'Highland',
  'Victoria',
  'Zambezi',
  'Kalahari',
  'Congo Basin',
  'Limpopo',
  'Atlas',
  'Ubuntu',
  'Harambee',
  'Sankofa',
  'Imani',
  'Umoja',
  'Meridian',
  'Coastal',
  'Summit',
] as const;

type Pattern = (place: string, eponym: string, field: StudyField) => { name: string; type: InstitutionType };
const PATTERNS: readonly Pattern[] = [
  (p, _e, f) => ({ name: `${p} University of ${FIELD_LABELS[f]}`, type: 'public' }),
  (_p, e) => ({ name: `${e} Institute of Technology`, type: 'private' }),
  (p) => ({ name: `University of ${p}`, type: 'public' }),
  (p, e) => ({ name: `${e} University ${p}`, type: 'private' }),
  (p, _e, f) => ({ name: `${p} College of ${FIELD_LABELS[f]}`, type: 'private' }),
  (p) => ({ name: `${p} Community College`, type: 'community_college' }),
  (_p, e) => ({ name: `${e} Open University`, type: 'online' }),
  (p, e) => ({ name: `${e} International University of ${p}`, type: 'international' }),
  (p) => ({ name: `${p} Polytechnic`, type: 'community_college' }),
  (_p, e, f) => ({ name: `${e} School of ${FIELD_LABELS[f]}`, type: 'private' }),
  (p) => ({ name: `${p} Institute of Technology`, type: 'public' }),
  (p) => ({ name: `${p} Digital University`, type: 'online' }),
];

const TUITION_BY_TYPE: Record<InstitutionType, [number, number]> = {
  public: [300, 9000],
  private: [1500, 25000],
  international: [6000, 45000],
  community_college: [300, 8000],
  online: [200, 6000],
};

/**
 * Plausible, varied institutions for benchmarks: about four in five in Africa, the rest in the other
 * regions; every type, field, setting and size occurs. Deterministic for a given seed; never random.
 */
export function generateUniversities(count: number, seed = 1): SeedUniversity[] {
  const rand = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const international = COUNTRY_CODES.filter((c) => COUNTRIES[c].region !== 'africa');

  const out: SeedUniversity[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const code: CountryCode = rand() < 0.8 ? pick(AFRICAN_COUNTRY_CODES) : pick(international);
    const country = COUNTRIES[code];
    const city = pick(country.cities);
    const primary = pick(STUDY_FIELDS);
    const { name, type: patternType } = pick(PATTERNS)(city, pick(EPONYMS), primary);
    // One in ten breaks the name's usual type so every combination shows up in filters.
    const type = rand() < 0.1 ? pick(INSTITUTION_TYPES) : patternType;

    const fields = new Set<StudyField>([primary]);
    const extra = int(0, 5);
    for (let k = 0; k < extra; k++) fields.add(pick(STUDY_FIELDS));

    const sizeRoll = rand();
    const enrollment =
      type === 'online' && sizeRoll < 0.5
        ? int(SIZE_LARGE_ABOVE + 1, 250_000)
        : sizeRoll < 0.45
          ? int(150, SIZE_SMALL_BELOW - 1)
          : sizeRoll < 0.8
            ? int(SIZE_SMALL_BELOW, SIZE_LARGE_ABOVE)
            : int(SIZE_LARGE_ABOVE + 1, 90_000);

    const [tMin, tMax] = TUITION_BY_TYPE[type];
    const regionFactor = country.region === 'africa' ? 1 : 2.5;
    const tuition = Math.round((int(tMin, tMax) * regionFactor) / 50) * 50;
    const tuitionMin = Math.round((tuition * (0.55 + rand() * 0.4)) / 50) * 50;
    const tuitionMax = Math.round((tuition * (1.1 + rand() * 0.8)) / 50) * 50;
    const living = country.region === 'africa' ? int(1500, 5000) : int(8000, 18000);
    const afterAid = Math.round(((tuition + living) * (0.35 + rand() * 0.6)) / 50) * 50;

    const usesSat = country.region === 'north_america' || (type === 'international' && rand() < 0.5);
    const satMin = usesSat ? int(40, 130) * 10 : null;
    const satMax = satMin === null ? null : Math.min(1600, satMin + int(15, 35) * 10);

    const graduateOnly = rand() < 0.06;
    const levels = graduateOnly ? ['graduate'] : rand() < 0.3 ? ['undergraduate'] : ['undergraduate', 'graduate'];
    const founded = int(1870, 2022);
    const deadline = new Date(Date.UTC(2026, 0, 1) + int(0, 729) * 86_400_000).toISOString().slice(0, 10);
    // The number keeps slugs unique and never matches a curated slug (none ends in a digit).
    const slug = `${slugify(name)}-${i + 1}`;
    const domain = `u${i + 1}.demo.kaminuza.example`;
    const fieldList = [...fields];

    out[i] = {
      slug,
      name,
      type: 'university',
      status: 'approved',
      published: true,
      description:
        `Demo listing generated for benchmarks. ${name} is a ${type.replace('_', ' ')} institution in ` +
        `${city}, ${country.name}, teaching ${fieldList.map((f) => FIELD_LABELS[f].toLowerCase()).join(', ')}.`,
      contact_email: `admissions@${domain}`,
      contact_phone: demoPhone(code, i),
      contact_website: `https://${domain}`,
      address_street: `${int(1, 400)} ${pick(EPONYMS)} Avenue`,
      address_city: city,
      address_country: code,
      address_postal_code: rand() < 0.5 ? String(int(10000, 99999)) : null,
      logo_url: null,
      gallery_images: [],
      stats: {},
      institution_type: type,
      year_established: founded,
      accreditation_body: country.accreditor.body,
      accreditation_number: `DEMO-GEN-${country.accreditor.code}-${String(i + 1).padStart(6, '0')}`,
      program_count: int(3, 400),
      region: country.region,
      fields: fieldList,
      program_levels: levels,
      tuition_usd: tuition,
      tuition_min_usd: Math.min(tuitionMin, tuition),
      tuition_max_usd: Math.max(tuitionMax, tuition),
      avg_cost_after_aid_usd: afterAid,
      graduation_rate: int(350, 980) / 10,
      acceptance_rate: int(30, 1000) / 10,
      sat_min: satMin,
      sat_max: satMax,
      student_faculty_ratio: int(50, 450) / 10,
      total_enrollment: enrollment,
      size: sizeForEnrollment(enrollment),
      setting: pick(CAMPUS_SETTINGS),
      application_deadline: deadline,
      is_demo: true,
    };
  }
  return out;
}
