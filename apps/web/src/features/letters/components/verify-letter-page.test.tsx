import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LetterVerification } from '@kaminuza/shared';
import { failure, renderPage, serve } from '../../../components/verification-page.testing.tsx';
import { normaliseCode, VerifyLetterPage } from './verify-letter-page.tsx';

const CODE = 'ABCD-EFGH-JKLM';
const verified: LetterVerification = {
  student_name: 'Aline Uwase',
  university_name: 'Lake Kivu Institute',
  program_name: 'BSc Computer Science',
  state: 'accepted',
  issued_on: '2026-07-15',
};

const renderAt = (url: string) => renderPage('/letters/:code', <VerifyLetterPage />, url);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('normaliseCode', () => {
  it('reads a code as typed: any case, with or without its dashes', () => {
    expect(normaliseCode('abcd-efgh-jklm')).toBe(CODE);
    expect(normaliseCode(' ABCDEFGHJKLM ')).toBe(CODE);
    expect(normaliseCode('abcd efgh jklm')).toBe(CODE);
  });

  it('refuses codes outside the alphabet or of another length', () => {
    // I, O, 0 and 1 are never used: they look like other characters.
    expect(normaliseCode('ABCD-EFGH-IJKL')).toBeNull();
    expect(normaliseCode('ABCD-EFGH-JK0M')).toBeNull();
    expect(normaliseCode('ABCD-EFGH')).toBeNull();
    expect(normaliseCode('')).toBeNull();
  });
});

describe('VerifyLetterPage', () => {
  it('confirms a genuine letter with no more than the name, institution, program, decision and date', async () => {
    const fetch = serve({ [`/api/v1/letters/${CODE}`]: { status: 200, body: { data: verified } } });
    await renderAt('/letters/abcd-efgh-jklm');
    expect(await screen.findByRole('heading', { name: /This letter is genuine/ })).toBeTruthy();
    screen.getByText('Aline Uwase');
    screen.getByText('Lake Kivu Institute');
    screen.getByText('BSc Computer Science');
    screen.getByText('Accepted');
    screen.getByText('July 15, 2026');
    expect(screen.getAllByRole('definition')).toHaveLength(5);
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0]?.[0]).toBe(`/api/v1/letters/${CODE}`);
  });

  it('says no letter matches an unknown code, and checks another one', async () => {
    serve({
      '/api/v1/letters/ABCD-EFGH-JKLN': failure(404, 'NOT_FOUND', 'No letter matches this verification code.'),
      [`/api/v1/letters/${CODE}`]: { status: 200, body: { data: verified } },
    });
    const router = await renderAt('/letters/ABCD-EFGH-JKLN');
    expect(await screen.findByRole('heading', { name: 'Letter not found' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('No letter matches this verification code.');
    const input = screen.getByRole('textbox', { name: 'Verification code' });
    fireEvent.change(input, { target: { value: 'abcdefghjklm' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check the code' }));
    expect(await screen.findByRole('heading', { name: /This letter is genuine/ })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/letters/${CODE}`);
  });

  it('answers a malformed code without asking the server', async () => {
    const fetch = serve({});
    await renderAt('/letters/not-a-code');
    expect(await screen.findByRole('heading', { name: 'Letter not found' })).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a failure with a retry, then the letter', async () => {
    let up = false;
    serve({
      [`/api/v1/letters/${CODE}`]: () =>
        up ? { status: 200, body: { data: verified } } : failure(503, 'UNAVAILABLE', 'unavailable'),
    });
    await renderAt(`/letters/${CODE}`);
    expect(screen.getByRole('status').textContent).toBe('Loading');
    // One retry after a second before the failure shows.
    expect(await screen.findByRole('alert', {}, { timeout: 3000 })).toBeTruthy();
    up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: /This letter is genuine/ })).toBeTruthy();
  });
});
