import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { messageKey } from '@kaminuza/shared';
import { errorMessageKey, fieldErrors } from './error-messages.ts';

describe('error messages', () => {
  it('finds the translation key of the spec texts', () => {
    expect(messageKey('This email is already registered. Please sign in instead.')).toBe('auth_errors.email_taken');
    expect(messageKey('You must be between 13 and 100 years old')).toBe('validation.age_range');
    expect(messageKey('Not found')).toBe('errors.not_found');
    expect(messageKey('something else')).toBeNull();
  });

  it('picks the network and fallback texts of the screen', () => {
    const offline = new ApiError('UNAVAILABLE', 'Failed to fetch', 503);
    const broken = new ApiError('INTERNAL', 'Something went wrong. Please try again.', 500);
    const keys = { network: 'auth_errors.network', fallback: 'auth_errors.signup_failed' };
    expect(errorMessageKey(offline, keys)).toBe('auth_errors.network');
    expect(errorMessageKey(broken, keys)).toBe('auth_errors.signup_failed');
    expect(errorMessageKey(broken)).toBe('errors.generic');
    expect(errorMessageKey(new ApiError('NOT_FOUND', 'No user account found. Please sign up first.', 404))).toBe(
      'auth_errors.no_account',
    );
  });

  it('reads the field issues of a 400 answer', () => {
    const error = new ApiError('INVALID_ARGUMENT', 'Please check your input and try again.', 400, [
      { path: 'email', message: 'Invalid email address' },
      { path: 'email', message: 'Email is too long' },
      { path: 'phone', message: 'Invalid phone number' },
    ]);
    expect(fieldErrors(error)).toEqual({ email: 'Invalid email address', phone: 'Invalid phone number' });
    expect(fieldErrors(new Error('x'))).toEqual({});
  });
});
