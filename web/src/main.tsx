// The browser entry: creates the QueryClient and router and mounts the app into #root.
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { exposeCspNonceToLibraries } from './lib/csp-nonce';
import { createQueryClient } from './lib/query-client';
import { createAppRouter } from './router';
import './styles.css';

// Before anything renders: dialogs and selects insert <style> elements the CSP allows with the nonce only.
exposeCspNonceToLibraries();
const queryClient = createQueryClient();
const router = createAppRouter(queryClient);
const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

createRoot(rootElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
