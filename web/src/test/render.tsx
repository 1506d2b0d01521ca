// Renders a component the way the app does: inside a QueryClient with the app's defaults, a memory
// router (so links and navigation work) and the toaster. Any path other than `/` renders a marker, so
// tests can assert where the component navigated.
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { Toaster } from '../components/toaster';
import { createQueryClient } from '../lib/query-client';

export function renderInApp(ui: ReactElement, queryClient: QueryClient = createQueryClient()) {
  const rootRoute = createRootRoute({
    component: () => (
      <Toaster>
        <Outlet />
      </Toaster>
    ),
  });
  const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: () => ui });
  const otherRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '$',
    component: () => <p data-testid="navigated-away">navigated away</p>,
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([indexRoute, otherRoute]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, queryClient, router };
}

/** Renders with the toaster and a QueryClient only: for components that need no router. */
export function renderWithToaster(ui: ReactElement, queryClient: QueryClient = createQueryClient()) {
  const result = render(
    <QueryClientProvider client={queryClient}>
      <Toaster>{ui}</Toaster>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

export interface StubbedRequest {
  url: string;
  method: string;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

type Responder = (request: StubbedRequest) => Response | Promise<Response>;

/**
 * Replaces fetch for one test: each call is recorded and answered by the first route whose
 * `METHOD path` prefix matches. There is no server yet; these tests cover the UI state machines.
 */
export function stubFetch(routes: Record<string, Responder>) {
  const requests: StubbedRequest[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request: StubbedRequest = { url, method, body, credentials: init?.credentials };
    requests.push(request);
    const match = Object.entries(routes).find(([key]) => `${method} ${url}`.startsWith(key));
    if (!match) return new Response('Not Found', { status: 404, statusText: 'Not Found' });
    return match[1](request);
  });
  vi.stubGlobal('fetch', fetchStub);
  return { requests, fetchStub };
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A promise with its resolver exposed, for holding a request open while asserting the busy state. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
