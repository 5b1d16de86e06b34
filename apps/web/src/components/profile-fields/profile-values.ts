import type { SchoolChoiceInput, StudentProfile } from '@kaminuza/shared';
import { EMPTY_SCHOOL } from './school-picker.tsx';

/* The saved profile as the starting values of the field groups (empty where nothing is saved yet). */

export const nameValues = (profile: StudentProfile) => ({
  first_name: profile.first_name ?? '',
  last_name: profile.last_name ?? '',
  preferred_name: profile.preferred_name ?? '',
});

export const aboutValues = (profile: StudentProfile) => ({
  date_of_birth: profile.date_of_birth ?? '',
  // An empty choice until the student picks one; the schema refuses it on submit.
  gender: profile.gender ?? ('' as never),
  nationality: profile.nationality ?? '',
});

export const addressValues = (profile: StudentProfile) => ({
  address: profile.address ?? '',
  city: profile.city ?? '',
  postal_code: profile.postal_code ?? '',
});

export const educationValues = (profile: StudentProfile) => ({
  education_level: profile.education_level ?? ('' as never),
  school: schoolChoiceOf(profile.school),
});

function schoolChoiceOf(school: StudentProfile['school']): SchoolChoiceInput {
  if (!school) return EMPTY_SCHOOL;
  return {
    id: school.id,
    name: school.name,
    city: school.city ?? '',
    state_province: school.state_province ?? '',
    country: school.country ?? '',
    levels_offered: school.levels_offered,
  };
}
