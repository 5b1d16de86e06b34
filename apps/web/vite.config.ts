import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { THEME_STORAGE_KEY } from '@kaminuza/shared/constants';

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

export default defineConfig({
  plugins: [documentHead(), react(), tailwindcss()],
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
    rolldownOptions: {
      // Two documents: the app (React, hydrated or client-rendered) and static public pages, which
      // get only a small progressive-enhancement script (ADR 002).
      input: { app: 'index.html', public: 'public.html' },
    },
  },
});
