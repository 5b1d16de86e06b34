import type { CustomStage, RubricCriterion } from '@kaminuza/shared';

/*
 * The demo institution's review (issue 8): applicants from across the continent, the stages and rubric
 * its staff set up, and where each application stands, so a newcomer signing in as demo staff meets a
 * working queue.
 */

export interface DemoApplicant {
  first_name: string;
  last_name: string;
  gender: 'male' | 'female';
  date_of_birth: string;
  nationality: string;
  city: string;
  country: string;
  phone: string;
  school: string;
  /** The final secondary school average (%), which the scores follow. */
  average: number;
  why: string;
}

export const DEMO_APPLICANTS: readonly DemoApplicant[] = [
  {
    first_name: 'Kwame',
    last_name: 'Mensah',
    gender: 'male',
    date_of_birth: '2005-07-02',
    nationality: 'GH',
    city: 'Accra',
    country: 'GH',
    phone: '+233241234567',
    school: 'Achimota School',
    average: 91,
    why: 'I have built small solar chargers for my village and want to study how to make energy reach everyone.',
  },
  {
    first_name: 'Aïcha',
    last_name: 'Diallo',
    gender: 'female',
    date_of_birth: '2006-01-19',
    nationality: 'SN',
    city: 'Dakar',
    country: 'SN',
    phone: '+221771234567',
    school: 'Lycée Blaise Diagne',
    average: 84,
    why: 'Je veux comprendre comment les entreprises africaines peuvent financer leur croissance.',
  },
  {
    first_name: 'Chinedu',
    last_name: 'Okafor',
    gender: 'male',
    date_of_birth: '2005-11-30',
    nationality: 'NG',
    city: 'Enugu',
    country: 'NG',
    phone: '+2348031234567',
    school: 'Federal Government College Enugu',
    average: 77,
    why: 'Software is how my generation will solve problems at scale, and I want to write it well.',
  },
  {
    first_name: 'Wanjiru',
    last_name: 'Kamau',
    gender: 'female',
    date_of_birth: '2006-04-08',
    nationality: 'KE',
    city: 'Nairobi',
    country: 'KE',
    phone: '+254712345678',
    school: 'Alliance Girls High School',
    average: 88,
    why: 'I want to become a doctor who brings care to the rural clinics I grew up near.',
  },
  {
    first_name: 'Thabo',
    last_name: 'Nkosi',
    gender: 'male',
    date_of_birth: '2005-09-14',
    nationality: 'ZA',
    city: 'Johannesburg',
    country: 'ZA',
    phone: '+27821234567',
    school: 'King Edward VII School',
    average: 69,
    why: 'Cities like mine need engineers who plan for the people who live in them.',
  },
  {
    first_name: 'Fatoumata',
    last_name: 'Traoré',
    gender: 'female',
    date_of_birth: '2006-02-25',
    nationality: 'ML',
    city: 'Bamako',
    country: 'ML',
    phone: '+22376123456',
    school: 'Lycée Askia Mohamed',
    average: 93,
    why: 'Les données peuvent aider les agriculteurs de mon pays à mieux prévoir les récoltes.',
  },
  {
    first_name: 'Eric',
    last_name: 'Niyonzima',
    gender: 'male',
    date_of_birth: '2005-06-11',
    nationality: 'RW',
    city: 'Huye',
    country: 'RW',
    phone: '+250788765432',
    school: 'Groupe Scolaire Officiel de Butare',
    average: 86,
    why: 'I tutor younger pupils in mathematics and want to bring computing to Rwandan schools.',
  },
  {
    first_name: 'Nadia',
    last_name: 'Mutoni',
    gender: 'female',
    date_of_birth: '2006-08-03',
    nationality: 'RW',
    city: 'Musanze',
    country: 'RW',
    phone: '+250722345678',
    school: 'Lycée de Kigali',
    average: 58,
    why: 'Tourism around the volcanoes feeds my town; I want to manage it so that it lasts.',
  },
  {
    first_name: 'Yohannes',
    last_name: 'Tesfaye',
    gender: 'male',
    date_of_birth: '2005-03-21',
    nationality: 'ET',
    city: 'Addis Ababa',
    country: 'ET',
    phone: '+251911234567',
    school: 'Addis Ababa Ethio-Parents School',
    average: 80,
    why: 'I want to design the networks that connect Ethiopian businesses to the rest of Africa.',
  },
  {
    first_name: 'Zawadi',
    last_name: 'Mwakyusa',
    gender: 'female',
    date_of_birth: '2006-10-17',
    nationality: 'TZ',
    city: 'Dar es Salaam',
    country: 'TZ',
    phone: '+255754123456',
    school: 'Zanaki Secondary School',
    average: 74,
    why: 'Public health starts with clean water, and I want to study how to deliver it.',
  },
  {
    first_name: 'Moussa',
    last_name: 'Ndiaye',
    gender: 'male',
    date_of_birth: '2005-12-05',
    nationality: 'SN',
    city: 'Thiès',
    country: 'SN',
    phone: '+221781234567',
    school: 'Lycée Malick Sy',
    average: 63,
    why: 'Je veux créer une entreprise de transport qui relie les villes du Sénégal.',
  },
  {
    first_name: 'Grace',
    last_name: 'Achieng',
    gender: 'female',
    date_of_birth: '2006-05-29',
    nationality: 'KE',
    city: 'Kisumu',
    country: 'KE',
    phone: '+254733456789',
    school: 'Kisumu Girls High School',
    average: 89,
    why: 'Lake Victoria’s fisheries need managers who understand both business and ecology.',
  },
];

/** The stages the demo institution moves applications through after the first read. */
export const DEMO_STAGES: readonly CustomStage[] = [
  { id: 'interview', name: 'Interview', order: 0 },
  { id: 'committee', name: 'Committee', order: 1 },
];

/** The demo institution's rubric: each reviewer scores every criterion from 0 to 100. */
export const DEMO_RUBRIC: readonly RubricCriterion[] = [
  { id: 'academic', name: 'Academic record', weight: 3 },
  { id: 'motivation', name: 'Motivation', weight: 2 },
  { id: 'fit', name: 'Fit with the programme', weight: 1 },
];

/** A second member who reads applications but does not decide: the review has several voices. */
export const DEMO_REVIEWER = {
  email: 'demo.reviewer@kaminuza.example',
  firstName: 'Claudine',
  lastName: 'Ingabire',
  role: 'Admissions officer',
} as const;

/**
 * Where each demo applicant's application stands, by their position in DEMO_APPLICANTS: new ones, some
 * in review (notes, scores, a stage), decisions drafted and released, one waitlisted.
 */
export type DemoReviewState =
  | { kind: 'new'; onBehalf?: boolean }
  | { kind: 'in_review'; stage?: string; assigned?: boolean; notes: readonly string[] }
  | { kind: 'drafted'; state: 'accepted' | 'rejected' | 'waitlisted'; notes: readonly string[] }
  | { kind: 'released'; state: 'accepted' | 'rejected' | 'waitlisted'; notes: readonly string[] };

export const DEMO_REVIEW_STATES: readonly DemoReviewState[] = [
  { kind: 'released', state: 'accepted', notes: ['Outstanding physics results; the solar project is real.'] },
  { kind: 'in_review', stage: 'interview', assigned: true, notes: ['Strong essay. Invite to an interview.'] },
  { kind: 'new' },
  { kind: 'drafted', state: 'accepted', notes: ['Clear motivation for medicine; references to confirm.'] },
  { kind: 'released', state: 'rejected', notes: ['Below the programme’s minimum average this year.'] },
  { kind: 'in_review', stage: 'committee', notes: ['Top of the cohort in mathematics.', 'Committee to confirm.'] },
  { kind: 'in_review', assigned: true, notes: [] },
  { kind: 'new', onBehalf: true },
  { kind: 'released', state: 'waitlisted', notes: ['Good candidate; the programme is full for now.'] },
  { kind: 'new' },
  { kind: 'drafted', state: 'rejected', notes: ['Motivation unclear for the chosen programme.'] },
  { kind: 'in_review', notes: ['Ask for the missing recommendation letter.'] },
];
