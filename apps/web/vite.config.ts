import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
