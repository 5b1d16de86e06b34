/* Sign-up's rules and answer, downloaded on the form's first check (see account-schemas.ts). */
export { SignUpResultSchema, StudentSignUpSchema } from '@kaminuza/shared';
