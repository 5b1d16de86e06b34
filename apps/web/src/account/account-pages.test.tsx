import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES, LANGUAGE_STORAGE_KEY, LANGUAGES, VALIDATION_MESSAGES, type Language } from '@kaminuza/shared';
import en from '@kaminuza/shared/locales/en.json';
import fr from '@kaminuza/shared/locales/fr.json';
import rw from '@kaminuza/shared/locales/rw.json';
import { renderAccountPage } from '../account-server.tsx';
import { AccountDocument } from './account-document.tsx';
import { ACCOUNT_PAGES } from './pages.ts';
import { documentNavigation } from './router.tsx';

const catalogues = { en, fr, rw };
let root: Root | null = null;

/** The page as the browser gets it: the prerendered HTML, then the entry script hydrating it. */
async function hydratePage(url: string, language: Language, preferred: Language | null = null) {
  window.history.replaceState(null, '', url);
  const path = new URL(url, 'http://localhost').pathname;
  const page = ACCOUNT_PAGES[path]!;
  const { html } = await renderAccountPage(path, language);
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const recoverable = vi.fn();
  const Page = await page.load();
  await act(async () => {
    root = hydrateRoot(
      container,
      <AccountDocument
        Page={Page}
        meta={page.meta}
        language={language}
        catalogue={catalogues[language]}
        loadCatalogue={async (next) => catalogues[next]}
        onLanguageChanged={(next) => localStorage.setItem(LANGUAGE_STORAGE_KEY, next)}
        preferred={preferred}
      />,
      { onRecoverableError: recoverable },
    );
  });
  return { container, recoverable };
}

function answer(status: number, body: unknown) {
  const fetch = vi.fn(async (input: RequestInfo | URL) =>
    String(input).endsWith('/auth/session')
      ? new Response(JSON.stringify({ data: null }), { status: 200 })
      : new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

beforeEach(() => {
  answer(200, { data: null });
  // jsdom has no media queries: the theme follows a light system.
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => ({ matches: false, addEventListener: () => {}, removeEventListener: () => {} })),
  );
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  cleanup();
  document.body.innerHTML = '';
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('entry pages', () => {
  it.each(Object.keys(ACCOUNT_PAGES).flatMap((path) => LANGUAGES.map((language) => [path, language] as const)))(
    '%s in %s hydrates the prerendered HTML without a mismatch',
    async (path, language) => {
      const errors = vi.spyOn(console, 'error');
      const { recoverable } = await hydratePage(`${path}?token=abc`, language);
      expect(recoverable).not.toHaveBeenCalled();
      expect(errors).not.toHaveBeenCalled();
      const titles = catalogues[language].auth;
      const title = { '/signup/live': titles.signup, '/login': titles.login, '/forgot-password': titles.forgot }[path];
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe((title ?? titles.reset).title);
    },
  );

  it('sign-in shows the spec texts at the fields, tied to them, and focuses the first', async () => {
    await hydratePage('/login', 'en');
    fireEvent.submit(screen.getByRole('button', { name: 'Sign in' }).closest('form')!);
    const email = screen.getByLabelText(en.auth.email);
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    const message = document.getElementById(email.getAttribute('aria-describedby')!);
    expect(message?.textContent).toBe(VALIDATION_MESSAGES.email_required);
    expect(document.activeElement).toBe(email);
  });

  it('sign-in moves on to the home of the user type', async () => {
    const go = vi.spyOn(documentNavigation, 'go').mockImplementation(() => {});
    await hydratePage('/login', 'fr');
    answer(200, {
      data: {
        id: 'u1',
        email: 'aline@example.com',
        type: 'staff',
        first_name: 'Aline',
        preferred_name: null,
        language: 'fr',
        contact_verified: true,
        partner_id: 'p1',
        onboarding_complete: true,
        partner_name: 'Université',
        partner_status: 'approved',
        partner_review_reason: null,
        staff_approval_status: 'approved',
        staff_permissions: ['all'],
        staff_active: true,
      },
    });
    fireEvent.change(screen.getByLabelText(fr.auth.email), { target: { value: 'aline@example.com' } });
    fireEvent.change(screen.getByLabelText(fr.auth.password), { target: { value: 'Str0ng#Password' } });
    fireEvent.submit(screen.getByLabelText(fr.auth.email).closest('form')!);
    await waitFor(() => expect(go).toHaveBeenCalledWith('/partner/dashboard', true));
  });

  it("sign-in shows the server's refusal in the page's language", async () => {
    await hydratePage('/login', 'rw');
    const fetch = answer(401, { error: { status: 'UNAUTHENTICATED', message: AUTH_MESSAGES.wrong_password } });
    fireEvent.change(screen.getByLabelText(rw.auth.email), { target: { value: 'aline@example.com' } });
    fireEvent.change(screen.getByLabelText(rw.auth.password), { target: { value: 'wrong' } });
    fireEvent.submit(screen.getByLabelText(rw.auth.email).closest('form')!);
    expect((await screen.findByRole('alert')).textContent).toBe(rw.auth_errors.wrong_password);
    expect(fetch).toHaveBeenCalledWith('/api/v1/auth/sign-in', expect.objectContaining({ method: 'POST' }));
  });

  it('sign-up checks a field when it is left, with the form-level message', async () => {
    await hydratePage('/signup/live', 'en');
    const first = screen.getByLabelText('First name');
    fireEvent.change(first, { target: { value: 'A' } });
    fireEvent.blur(first);
    await waitFor(() => expect(screen.getByText(VALIDATION_MESSAGES.first_name_too_short)).toBeTruthy());
    expect(screen.getByRole('alert').textContent).toBe(en.validation.general);
    // Fields not reached yet say nothing.
    expect(screen.queryByText(VALIDATION_MESSAGES.last_name_required)).toBeNull();
  });

  it('switches language in place and keeps the choice for the next pages', async () => {
    await hydratePage('/forgot-password', 'en');
    fireEvent.change(screen.getAllByLabelText('Language')[0]!, { target: { value: 'fr' } });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(fr.auth.forgot.title));
    expect(document.documentElement.lang).toBe('fr');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('fr');
  });

  it('offers a signed-in visitor the way back to their own area', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ data: { type: 'admin' } }), { status: 200 })),
    );
    const { container } = await hydratePage('/login', 'en');
    await waitFor(() =>
      expect(container.querySelector('[data-session]')?.getAttribute('data-session')).toBe('signed-in'),
    );
    const dashboard = screen.getByRole('link', { name: en.nav.dashboard });
    expect(dashboard.getAttribute('href')).toBe('/admin/dashboard');
    expect(container.querySelector('[data-account="signed-out"]')?.hasAttribute('hidden')).toBe(true);
  });

  it('turns to the language the visitor chose when the page came in another', async () => {
    await hydratePage('/reset-password', 'en', 'rw');
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(rw.auth.reset.title));
  });
});
