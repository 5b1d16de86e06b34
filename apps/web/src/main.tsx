import './styles.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './app/providers.tsx';
import { routes } from './app/routes.tsx';
import { resolveLazyRoutes } from './app/lazy-routes.ts';
import { createClientI18n, detectLanguage } from './lib/i18n.ts';
import { isLanguage } from './lib/languages.ts';
import { createQueryClient } from './lib/query-client.ts';
import { applyTheme, readTheme } from './lib/theme.ts';
import { scheduleRenderEvent } from './lib/render-event.ts';
import { registerServiceWorker } from './lib/service-worker.ts';
import { captureInstallPrompt } from './lib/install-prompt.ts';

async function start() {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  const prerendered = container.hasAttribute('data-ssr');
  const wanted = detectLanguage();
  const pageLanguage = document.documentElement.lang;
  // Hydrate in the language the HTML was rendered in, then switch if the visitor prefers another.
  const first = prerendered && isLanguage(pageLanguage) ? pageLanguage : wanted;

  const [i18n] = await Promise.all([createClientI18n(first), resolveLazyRoutes(routes, window.location)]);
  const router = createBrowserRouter(routes);
  const app = (
    <StrictMode>
      <AppProviders i18n={i18n} queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
  if (prerendered) hydrateRoot(container, app);
  else createRoot(container).render(app);

  applyTheme(readTheme());
  if (first !== wanted) await i18n.changeLanguage(wanted);
  scheduleRenderEvent();
}

// Before the first render: the browser may offer installation at any moment after load.
captureInstallPrompt();
void start();
registerServiceWorker();
