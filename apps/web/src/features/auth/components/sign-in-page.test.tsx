import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import fr from '@kaminuza/shared/locales/fr.json';
import rw from '@kaminuza/shared/locales/rw.json';
import { AUTH_MESSAGES, lockedOutMessage } from '@kaminuza/shared';
import { ResetPasswordPage } from './reset-password-page.tsx';
import { SignInPage } from './sign-in-page.tsx';

type Reply = { status: number; body: unknown };

function serve(reply: Reply) {
  const fetch = vi.fn(async () =>
    Promise.resolve(
      new Response(JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'content-type': 'application/json' },
      }),
    ),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const lockedOut = (seconds: number): Reply => ({
  status: 429,
  body: {
    error: {
      status: 'RESOURCE_EXHAUSTED',
      message: lockedOutMessage(Math.ceil(seconds / 60)),
      details: { retry_after_seconds: seconds },
    },
  },
});

async function renderPage(language: 'en' | 'fr' | 'rw', url: string, element: React.ReactNode) {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng: language,
    resources: { en: { translation: en }, fr: { translation: fr }, rw: { translation: rw } },
    initAsync: false,
  });
  const router = createMemoryRouter([{ path: url.split('?')[0], element }], { initialEntries: [url] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

async function signInWith(password: string) {
  fireEvent.change(screen.getByLabelText(/email|e-mail|imeri/i), { target: { value: 'aline@example.com' } });
  fireEvent.change(screen.getByLabelText(/password|mot de passe|ijambo/i), { target: { value: password } });
  fireEvent.submit(screen.getByRole('button', { name: /sign in|connexion|se connecter|injira/i }).closest('form')!);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SignInPage when the account is locked out', () => {
  it('tells how many minutes to wait', async () => {
    serve(lockedOut(900));
    await renderPage('en', '/login', <SignInPage />);
    await signInWith('Str0ng#Password');
    expect(await screen.findByText('Too many attempts. Please try again in 15 minutes.')).toBeTruthy();
  });

  it('words the wait in French and Kinyarwanda, with their plural forms', async () => {
    serve(lockedOut(60));
    await renderPage('fr', '/login', <SignInPage />);
    await signInWith('Str0ng#Password');
    expect(await screen.findByText('Trop de tentatives. Veuillez réessayer dans 1 minute.')).toBeTruthy();
    cleanup();

    serve(lockedOut(14 * 60 + 1));
    await renderPage('rw', '/login/admin', <SignInPage admin />);
    await signInWith('Str0ng#Password');
    expect(await screen.findByText('Wagerageje inshuro nyinshi. Ongera ugerageze mu minota 15.')).toBeTruthy();
  });

  it("keeps the spec's text for a 429 that is not a lockout (too many requests from one address)", async () => {
    serve({ status: 429, body: { error: { status: 'RESOURCE_EXHAUSTED', message: AUTH_MESSAGES.too_many_attempts } } });
    await renderPage('en', '/login', <SignInPage />);
    await signInWith('Str0ng#Password');
    expect(await screen.findByText(AUTH_MESSAGES.too_many_attempts)).toBeTruthy();
  });
});

describe('ResetPasswordPage when the password is refused as common', () => {
  it('shows the refusal at the password field and keeps the form', async () => {
    serve({
      status: 400,
      body: {
        error: {
          status: 'INVALID_ARGUMENT',
          message: AUTH_MESSAGES.weak_password,
          details: [{ path: 'password', message: AUTH_MESSAGES.weak_password }],
        },
      },
    });
    await renderPage('fr', '/reset-password?token=abc', <ResetPasswordPage />);
    const [password, confirm] = screen.getAllByLabelText(/mot de passe/i) as HTMLInputElement[];
    fireEvent.change(password!, { target: { value: 'Password1!' } });
    fireEvent.change(confirm!, { target: { value: 'Password1!' } });
    fireEvent.submit(password!.closest('form')!);
    expect(
      await screen.findByText('Le mot de passe est trop faible. Veuillez choisir un mot de passe plus fort.'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.getAllByLabelText(/mot de passe/i)).toHaveLength(2));
  });
});
