import { paths } from '../../../app/paths.ts';

export const universityPath = (partnerId: string) => `${paths.student.partners}/${encodeURIComponent(partnerId)}`;
export const applicationPath = (partnerId: string) => `${universityPath(partnerId)}/application`;
