import { useMutation } from '@tanstack/react-query';
import { SignUpResultSchema, type StudentSignUpInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const signUpStudent = (input: StudentSignUpInput) =>
  api('/auth/sign-up/student', SignUpResultSchema, { method: 'POST', body: input });

export function useSignUpStudent() {
  return useMutation({ mutationFn: signUpStudent });
}
