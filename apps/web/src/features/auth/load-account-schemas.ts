/** The account forms' and answers' schemas, downloaded on first use (see account-schemas.ts). */
export const accountSchemas = () => import('./account-schemas.ts');

/** Sign-up's, with the phone-number data that only sign-up needs. */
export const signUpSchemas = () => import('./sign-up-schemas.ts');
