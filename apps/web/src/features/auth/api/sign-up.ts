import { useMutation } from '@tanstack/react-query';
import type { StudentSignUpInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { signUpSchemas } from '../load-account-schemas.ts';

export const signUpStudent = async (input: StudentSignUpInput) =>
  api('/auth/sign-up/student', (await signUpSchemas()).SignUpResultSchema, { method: 'POST', body: input });

export function useSignUpStudent() {
  return useMutation({ mutationFn: signUpStudent });
}
