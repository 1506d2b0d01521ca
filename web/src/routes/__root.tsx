// The root of every page: toasts and tooltips are provided here, inside the router, so a toast's
// action can be a router link; the branding's primary colour and each screen's document title are
// applied here for every page.
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { NotFound } from '../components/not-found';
import { RouteError } from '../components/route-error';
import { Toaster } from '../components/toaster';
import { TooltipProvider } from '../components/ui/tooltip';
import { useDocumentTitle } from '../features/layout/document-title';
import { useBrandColor } from '../features/site/use-brand-color';
import type { RouterContext } from '../router';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
  errorComponent: RouteError,
});

function RootLayout() {
  useBrandColor();
  useDocumentTitle();
  return (
    <TooltipProvider>
      <Toaster>
        <Outlet />
      </Toaster>
    </TooltipProvider>
  );
}
