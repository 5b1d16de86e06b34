import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { useHydrated } from './use-hydrated.ts';

/** Shows what only the browser knows (here the query string) once hydrated, as the screens do. */
function Token() {
  const hydrated = useHydrated();
  return <p>{hydrated ? (new URLSearchParams(window.location.search).get('token') ?? 'none') : 'loading'}</p>;
}

describe('useHydrated', () => {
  it('renders as the server did while hydrating, then the browser value, with no mismatch', async () => {
    const html = renderToString(<Token />);
    expect(html).toBe('<p>loading</p>');

    window.history.replaceState(null, '', '/reset-password?token=abc');
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const onRecoverableError = vi.fn();
    await act(async () => {
      hydrateRoot(container, <Token />, { onRecoverableError });
    });
    expect(container.textContent).toBe('abc');
    expect(onRecoverableError).not.toHaveBeenCalled();
  });

  it('a browser value read in render without it is a mismatch React reports (what the check above guards)', async () => {
    // The same page read in render without the hook: React reports the mismatch it hydrates over.
    function Unguarded() {
      return <p>{typeof window === 'undefined' ? 'loading' : 'abc'}</p>;
    }
    const container = document.createElement('div');
    container.innerHTML = '<p>loading</p>';
    document.body.append(container);
    const onRecoverableError = vi.fn();
    await act(async () => {
      hydrateRoot(container, <Unguarded />, { onRecoverableError });
    });
    expect(onRecoverableError).toHaveBeenCalled();
  });
});
