import { randomBytes } from 'node:crypto';

/*
 * Verification codes printed on what we issue (admission letters, payment receipts): anyone holding the
 * paper can type the code into the public verify page and see that it is genuine.
 */

/** 32 characters without look-alikes (no I, O, 0 or 1): a code read off paper is typed back right. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `XXXX-XXXX-XXXX`: 60 random bits, each character one unbiased draw (the alphabet has 32 letters). */
export function newVerificationCode(): string {
  const chars = [...randomBytes(12)].map((byte) => CODE_ALPHABET[byte & 31]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}
