import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROFILE_MESSAGES, messageKey } from '../messages.ts';
import {
  COMPLETION_FIELDS,
  EducationProfileSchema,
  normalizePhone,
  phoneCountryOf,
  profileCompletion,
  type StudentProfile,
} from './student-profile.ts';

type CompletionInput = Parameters<typeof profileCompletion>[0];

const empty = Object.fromEntries(COMPLETION_FIELDS.map((field) => [field, null])) as unknown as CompletionInput;
const full: CompletionInput = {
  first_name: 'Aline',
  last_name: 'Uwase',
  phone: '+250788123456',
  date_of_birth: '2006-04-12',
  gender: 'female',
  nationality: 'RW',
  address: 'KN 5 Road',
  city: 'Kigali',
  country_of_residence: 'RW',
  education_level: 'high_school',
  school: {
    id: null,
    name: 'Lycée de Kigali',
    city: 'Kigali',
    state_province: null,
    country: 'RW',
    levels_offered: [],
  },
  graduation_year: 2024,
  exam_sittings: [
    {
      id: '00000000-0000-4000-8000-000000000001',
      exam: 'rwanda_alevel',
      other_name: '',
      year: 2024,
      index_number: '',
      results: [{ subject: 'mathematics', grade: 'A' }],
      declared: null,
      overall: '',
      document_type: null,
      verified: null,
    },
  ],
  profile_picture: '/api/v1/students/me/profile-picture',
} satisfies Pick<StudentProfile, (typeof COMPLETION_FIELDS)[number]>;

describe('profileCompletion', () => {
  it('starts at 25 and reaches 100 with every field and the five documents', () => {
    expect(profileCompletion(empty, 0)).toBe(25);
    expect(profileCompletion(full, 0)).toBe(75);
    expect(profileCompletion(full, 5)).toBe(100);
    expect(profileCompletion(full, 9)).toBe(100);
  });

  it('grows with each filled field and document; blank text and empty lists do not count', () => {
    const some = profileCompletion({ ...empty, first_name: 'Aline', last_name: 'Uwase' }, 0);
    expect(some).toBeGreaterThan(25);
    expect(profileCompletion({ ...empty, first_name: '  ', exam_sittings: [] }, 0)).toBe(25);
    expect(profileCompletion(empty, 1)).toBe(30);
  });
});

describe('phone numbers', () => {
  it('are stored in E.164 form and give back their country', () => {
    expect(normalizePhone('0788 123 456', 'RW')).toBe('+250788123456');
    expect(phoneCountryOf('+254712345678')).toBe('KE');
    expect(phoneCountryOf(null)).toBeNull();
  });
});

describe('education', () => {
  it('accepts an empty graduation year and reads a typed one as a number', () => {
    const base = { education_level: 'other', school: { name: 'A school', city: 'Huye', country: 'RW' } };
    expect(EducationProfileSchema.parse({ ...base, graduation_year: '' }).graduation_year).toBeNull();
    expect(EducationProfileSchema.parse({ ...base, graduation_year: '2021' }).graduation_year).toBe(2021);
  });
});

describe('profile messages', () => {
  it('English carries the spec texts of the onboarding and profile failures, and the web can find them', () => {
    const en = JSON.parse(readFileSync(new URL('../../locales/en.json', import.meta.url), 'utf8')) as {
      profile: { errors: Record<string, string> };
    };
    expect(en.profile.errors).toEqual(PROFILE_MESSAGES);
    expect(messageKey('Profile not found')).toBe('profile.errors.not_found');
  });
});
