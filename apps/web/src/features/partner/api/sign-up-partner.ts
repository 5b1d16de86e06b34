import { useMutation } from '@tanstack/react-query';
import { SignUpResultSchema, type PartnerSignUp } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const signUpPartner = (input: PartnerSignUp) =>
  api('/auth/sign-up/partner', SignUpResultSchema, { method: 'POST', body: input });

export function useSignUpPartner() {
  return useMutation({ mutationFn: signUpPartner });
}
