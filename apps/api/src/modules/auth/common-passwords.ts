import { dictionary } from '@zxcvbn-ts/language-common';
import { AUTH_MESSAGES } from '@kaminuza/shared';
import { AppError } from '../../lib/errors.ts';

/**
 * zxcvbn-ts's list of common and breached passwords (about 49,000, lower case), kept on the server only:
 * the web checks the spec's character rules and shows the refusal the api answers.
 */
let common: Set<string> | undefined;

/** Read as the usual substitutions for letters ('P@ssw0rd'), once the ends are stripped. */
const LEET: Record<string, string> = {
  '@': 'a',
  '4': 'a',
  '8': 'b',
  '3': 'e',
  '6': 'g',
  '9': 'g',
  '1': 'i',
  '!': 'i',
  '0': 'o',
  $: 's',
  '5': 's',
  '7': 't',
  '+': 't',
};

/** Digits and symbols around a word ('Password1!', '#Dragon2024') add almost nothing an attacker does not try. */
const ENDS = /^[^\p{L}]+|[^\p{L}]+$/gu;
/** A bare core shorter than this is not looked up: too many short strings are on the list to be telling. */
const MIN_CORE = 4;

/**
 * The spec's character rules make people capitalise a listed word and pad it with a digit and a symbol,
 * so the list is checked against the password as typed (lower-cased), its letters-only core once digits
 * and symbols are stripped from both ends, and that core with look-alike substitutions undone.
 */
function candidates(password: string): string[] {
  const lower = password.normalize('NFKC').toLowerCase();
  const core = lower.replace(ENDS, '');
  const forms = [lower];
  if (core.length >= MIN_CORE) forms.push(core, [...core].map((char) => LEET[char] ?? char).join(''));
  return forms;
}

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return candidates(password).some((form) => common!.has(form));
}

/** 400 with the spec's 'Password is too weak…' on the field that carried the password. */
export function assertNotCommonPassword(password: string, field: string): void {
  if (!isCommonPassword(password)) return;
  throw new AppError('INVALID_ARGUMENT', AUTH_MESSAGES.weak_password, [
    { path: field, message: AUTH_MESSAGES.weak_password },
  ]);
}
