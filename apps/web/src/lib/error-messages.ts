import { ApiError } from './api-client.ts';

/** The spec's generic messages (section 8), by the API's message text, as translation keys. */
const MESSAGE_KEYS: Record<string, string> = {
  'Something went wrong. Please try again.': 'errors.generic',
  'Not found': 'errors.not_found',
  'You are not authorized to perform this action.': 'errors.not_authorized',
  'Please check your input and try again.': 'errors.check_input',
};

/** The translation key to show for a failed call: the spec's text when known, else a generic one. */
export function errorMessageKey(error: unknown): string {
  if (!(error instanceof ApiError)) return 'errors.generic';
  if (error.status === 'UNAVAILABLE' || error.status === 'DEADLINE_EXCEEDED') return 'errors.network';
  return MESSAGE_KEYS[error.message] ?? 'errors.generic';
}
