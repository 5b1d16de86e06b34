import { paths } from '../../../lib/paths.ts';

export const universityPath = paths.student.university;
export const applicationPath = paths.student.application;
