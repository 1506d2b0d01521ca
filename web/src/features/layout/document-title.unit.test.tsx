// Each screen its own document title, "<Screen> · Consentry", following the route as the app navigates.
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { act, render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getDocumentTitle, useDocumentTitle } from './document-title';

function renderRoutes(initialPath: string) {
  const rootRoute = createRootRoute({
    component: function Root() {
      useDocumentTitle();
      return <Outlet />;
    },
  });
  const screen = (path: string) => createRoute({ getParentRoute: () => rootRoute, path, component: () => <p>{path}</p> });
  const router = createRouter({
    routeTree: rootRoute.addChildren([screen('/'), screen('/dashboard'), screen('/admin/websites'), screen('/leads/$websiteId/$visitorId')]),
    history: createMemoryHistory({ initialEntries: [initialPath] }),
  });
  render(<RouterProvider router={router} />);
  return router;
}

describe('document title', () => {
  it('names the screen the route shows, and follows navigation', async () => {
    const router = renderRoutes('/dashboard');
    await waitFor(() => expect(document.title).toBe('Overview · Consentry'));
    await act(() => router.navigate({ to: '/admin/websites' }));
    await waitFor(() => expect(document.title).toBe('Websites · Consentry'));
    await act(() => router.navigate({ to: '/leads/$websiteId/$visitorId', params: { websiteId: 'w1', visitorId: 'v1' } }));
    await waitFor(() => expect(document.title).toBe('Lead · Consentry'));
    await act(() => router.navigate({ to: '/' }));
    await waitFor(() => expect(document.title).toBe('Consentry'));
  });

  it.each([
    ['/analytics', 'Analytics & Consent · Consentry'],
    ['/user/setup-instructions', 'Setup Guide · Consentry'],
    ['/admin/', 'Dashboard · Consentry'],
    ['/websites/', 'Websites · Consentry'],
    ['/websites/$websiteId/overview', 'Overview · Website · Consentry'],
    ['/websites/$websiteId/scan', 'Cookie scan · Website · Consentry'],
    ['/websites/$websiteId/installation', 'Installation · Website · Consentry'],
    ['/leads/', 'Leads · Consentry'],
    ['/no-such-screen', 'Consentry'],
    [undefined, 'Consentry'],
  ])('of %s is %j', (fullPath, title) => {
    expect(getDocumentTitle(fullPath)).toBe(title);
  });
});
