/** The account forms' and answers' schemas, downloaded on first use (see account-schemas.ts). */
export const accountSchemas = () => import('./account-schemas.ts');
