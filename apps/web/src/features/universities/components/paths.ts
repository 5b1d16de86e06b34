import { paths } from '../../../app/paths.ts';

export const universityPath = paths.student.university;
export const applicationPath = paths.student.application;
