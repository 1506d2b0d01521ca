// Builds and serves the React app. The router plugin generates src/routeTree.gen.ts from the files in
// src/routes and splits each route's component into its own chunk, so `/` loads only what it shows.
// The api serves web/dist on the same origin; in development `/api` is proxied to it.
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: webRoot,
  plugins: [
    // Must run before the React plugin so the split route modules are transformed as JSX too.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: `${webRoot}src/routes`,
      generatedRouteTree: `${webRoot}src/routeTree.gen.ts`,
    }),
    react(),
    tailwindcss(),
  ],
  server: {
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
  build: {
    outDir: `${webRoot}dist`,
    emptyOutDir: true,
    // scripts/report-size.ts reads the manifest to measure what `/` loads before it can render.
    manifest: true,
  },
});
