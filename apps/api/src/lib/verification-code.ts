import { randomBytes } from 'node:crypto';

/*
 * Verification codes printed on what we issue (admission letters, payment receipts): anyone holding the
 * paper can type the code into the public verify page and see that it is genuine.
 */

/** 32 characters without look-alikes (no I, O, 0 or 1): a code read off paper is typed back right. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `count` characters of the alphabet, each one unbiased draw of 5 random bits (the alphabet has 32 letters). */
export function codeCharacters(count: number): string {
  return [...randomBytes(count)].map((byte) => CODE_ALPHABET[byte & 31]).join('');
}

/** `XXXX-XXXX-XXXX`: 60 random bits. */
export function newVerificationCode(): string {
  const chars = codeCharacters(12);
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}
