import { universityPath } from '../../universities/components/paths.ts';

/** The student's conversation with an institution lives under its page. */
export const chatPath = (partnerId: string) => `${universityPath(partnerId)}/chat`;
