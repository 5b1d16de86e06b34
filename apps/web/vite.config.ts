import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { APP_SHELL_URL } from './src/lib/offline-reads.ts';
import { studentPrecache } from './scripts/student-precache.ts';
import { cldrNames } from './scripts/cldr-names-plugin.ts';
import { firstLoad as firstLoadFiles } from './scripts/first-load.ts';
import { accountVariants } from './scripts/account-variants.ts';
import {
  APP_TEXT_GROUPS,
  PAGE_TEXT_GROUPS,
  SERVER_ONLY_GROUPS,
  STAFF_TEXT_GROUPS,
  THEME_STORAGE_KEY,
} from '@kaminuza/shared/constants';

/**
 * Both documents (app and static public pages) share one <head>: meta tags and the inline script that
 * applies the stored theme before first paint (its hash is allowed by the server's CSP).
 */
function documentHead(): Plugin {
  const head = readFileSync(new URL('./document-head.html', import.meta.url), 'utf8').replace(
    '%THEME_STORAGE_KEY%',
    THEME_STORAGE_KEY,
  );
  return {
    name: 'kaminuza-document-head',
    transformIndexHtml: { order: 'pre', handler: (html) => html.replace('<!--document-head-->', head) },
  };
}

const firstLoad = firstLoadFiles(/[\\/]src[\\/]public-entry\.ts$/);

const LOCALE_PART = 'virtual:kaminuza-locale/';

/**
 * `virtual:kaminuza-locale/<lang>/<core|pages|app|staff>`: one language's catalogue split in four, so
 * screens download the page texts only when they show a public page, the feature texts only with a
 * feature screen, the admissions setup texts only with a setup screen, and never the server's email texts.
 */
function localeParts(): Plugin {
  const parts: Record<string, readonly string[]> = {
    pages: PAGE_TEXT_GROUPS,
    app: APP_TEXT_GROUPS,
    staff: STAFF_TEXT_GROUPS,
  };
  const elsewhere: readonly string[] = [
    ...PAGE_TEXT_GROUPS,
    ...APP_TEXT_GROUPS,
    ...STAFF_TEXT_GROUPS,
    ...SERVER_ONLY_GROUPS,
  ];
  return {
    name: 'kaminuza-locale-parts',
    resolveId: (id) => (id.startsWith(LOCALE_PART) ? `\0${id}` : undefined),
    load(id) {
      if (!id.startsWith(`\0${LOCALE_PART}`)) return undefined;
      const [lang, part] = id.slice(LOCALE_PART.length + 1).split('/');
      if (!lang || !/^[a-z]{2}$/.test(lang) || !part || (part !== 'core' && !parts[part])) {
        throw new Error(`Unknown catalogue part ${id}`);
      }
      const file = fileURLToPath(new URL(`../../packages/shared/locales/${lang}.json`, import.meta.url));
      this.addWatchFile(file);
      const catalogue = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const picked = Object.entries(catalogue).filter(([group]) =>
        part === 'core' ? !elsewhere.includes(group) : parts[part]?.includes(group),
      );
      return `export default ${JSON.stringify(Object.fromEntries(picked))};`;
    },
  };
}

/**
 * `--mode account`: the entry pages' own bundle (ADR 044), built after the app's into the same folder.
 * With `--ssr`, their server render for the prerender step.
 */
const accountConfig = defineConfig({
  plugins: [documentHead(), localeParts(), cldrNames(), accountVariants(), react(), tailwindcss()],
  build: {
    target: 'es2022',
    cssCodeSplit: true,
    sourcemap: false,
    reportCompressedSize: false,
    emptyOutDir: false,
    // Read by the prerender step (the page's own chunk is named in its head) and bench/bundle.ts.
    manifest: '.vite/account-manifest.json',
    rolldownOptions: {
      input: { account: 'account.html' },
      output: { chunkFileNames: 'assets/[hash].js' },
    },
  },
});

const appConfig = defineConfig({
  plugins: [
    documentHead(),
    localeParts(),
    cldrNames(),
    firstLoad.plugin,
    react(),
    tailwindcss(),
    // The installable app and its service worker (ADR 039). Registered by src/lib/service-worker.ts.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      // Built to /sw.js: the name push subscriptions were made with before, so they carry over.
      filename: 'sw.ts',
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      manifest: {
        id: '/home',
        name: 'Kaminuza',
        short_name: 'Kaminuza',
        description: 'Apply to universities in Rwanda and beyond, even on a weak connection.',
        start_url: '/home',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        // The light theme's brand and page colours; dark pages set theirs through <meta name="theme-color">.
        theme_color: '#0f5e4d',
        background_color: '#f7f8f6',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ],
      },
      includeManifestIcons: false,
      injectManifest: {
        globPatterns: ['index.html', 'assets/*.{js,css}', 'favicon.svg', 'icon-192.png'],
        manifestTransforms: [studentPrecache(APP_SHELL_URL)],
      },
    }),
  ],
  server: {
    port: 5173,
    // changeOrigin stays false: the API checks that a request's Origin matches the Host it was sent to.
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    cssCodeSplit: true,
    sourcemap: false,
    reportCompressedSize: false,
    // Read by bench/bundle.ts to measure what each screen downloads.
    manifest: true,
    rolldownOptions: {
      // Two documents: the app (React, hydrated or client-rendered) and static public pages, which
      // get only a small progressive-enhancement script (ADR 002).
      input: { app: 'index.html', public: 'public.html' },
      // The app's first script lists every lazy chunk's file for preloading: names would only add bytes.
      output: {
        chunkFileNames: 'assets/[hash].js',
        codeSplitting: { groups: firstLoad.groups },
      },
    },
  },
});

export default defineConfig((env) => (env.mode === 'account' ? accountConfig : appConfig));
