// Builds and serves the React app. The router plugin generates src/routeTree.gen.ts from the files in
// src/routes and splits each route's component (and loader) into its own chunk, so `/` loads only what it shows.
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
      codeSplittingOptions: {
        // The screens' loaders get chunks of their own too: they import their features' query modules,
        // which `/` never needs, and hovering a link loads a loader's chunk with its data. The landing
        // page's loader stays in the entry, which `/` loads anyway.
        splitBehavior: ({ routeId }) => (routeId === '/' ? undefined : [['loader'], ['component'], ['errorComponent'], ['notFoundComponent']]),
      },
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
