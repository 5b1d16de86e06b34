import { z } from 'zod/mini';

/** The answer to a sign-up: in zod/mini, since the light sign-up page checks it too (ADR 044). */
export const SignUpResultSchema = z.object({ email: z.string(), verification_sent: z.literal(true) });
export type SignUpResult = z.infer<typeof SignUpResultSchema>;
