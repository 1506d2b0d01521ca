// Each screen's browser-tab title, "<Screen> · Consentry", from the route the page is on, so tabs,
// history and bookmarks say which screen they are. Keyed by the generated route tree's full paths:
// a new route without a title does not compile. Routes that only redirect (the spec's older screens,
// now tabs of a website's page) keep their old titles, in case a redirect is slow to land.
import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import type { FileRouteTypes } from '../../routeTree.gen';

export const productTitle = 'Consentry';

/** The screen's name as the sidebar and headings say it; null: the product's name alone (the landing page). */
const screenTitles: Record<FileRouteTypes['fullPaths'], string | null> = {
  '/': null,
  '/confirm-email': 'Confirm Email',
  '/confirm-email-change': 'Confirm New Email',
  '/forgot-password': 'Forgot Password',
  '/reset-password': 'Reset Password',
  '/invitation': 'Invitation',
  '/login': 'Login',
  '/pricing': 'Pricing',
  '/privacy': 'Privacy',
  '/privacy-policy': 'Privacy Policy',
  '/account': 'Account',
  '/analytics': 'Analytics & Consent',
  '/dashboard': 'Overview',
  '/export': 'Export',
  '/installation': 'Installation',
  '/recommendations': 'Recommendations',
  '/settings': 'Settings',
  '/setup-instructions': 'Setup Guide',
  '/subscription': 'Subscription',
  '/website-analytics': 'Website Analytics',
  '/websites/': 'Websites',
  '/websites/$websiteId': 'Website',
  '/websites/$websiteId/': 'Website',
  '/websites/$websiteId/overview': 'Overview · Website',
  '/websites/$websiteId/consent': 'Consent · Website',
  '/websites/$websiteId/traffic': 'Traffic · Website',
  '/websites/$websiteId/leads': 'Leads · Website',
  '/websites/$websiteId/banner': 'Banner · Website',
  '/websites/$websiteId/scan': 'Cookie scan · Website',
  '/websites/$websiteId/installation': 'Installation · Website',
  '/websites/$websiteId/webhooks': 'Webhooks · Website',
  '/admin/login': 'Admin Login',
  '/admin/password': 'Change Password',
  '/user-management': 'User Management',
  '/website-editor': 'Website Editor',
  '/user/export': 'Export',
  '/user/installation': 'Installation',
  '/user/settings': 'Settings',
  '/user/setup-instructions': 'Setup Guide',
  '/user/websites': 'Websites',
  '/leads/': 'Leads',
  '/admin/export': 'Export',
  '/admin/installation': 'Installation',
  '/admin/settings': 'Settings',
  '/admin/setup-instructions': 'Setup Guide',
  '/admin/websites': 'Websites',
  '/leads/$websiteId/$visitorId': 'Lead',
  '/receipts/$consentId': 'Consent receipt',
  '/admin/': 'Dashboard',
};

/** The document title of the route with this full path ('/leads/$websiteId/$visitorId'). */
export function getDocumentTitle(fullPath: string | undefined): string {
  const screen = fullPath !== undefined && Object.hasOwn(screenTitles, fullPath) ? screenTitles[fullPath as FileRouteTypes['fullPaths']] : null;
  return screen ? `${screen} · ${productTitle}` : productTitle;
}

/** Keeps document.title on the current screen's title; used once, in the root layout. */
export function useDocumentTitle(): void {
  const fullPath = useRouterState({ select: (state) => state.matches.at(-1)?.fullPath });
  useEffect(() => {
    document.title = getDocumentTitle(fullPath);
  }, [fullPath]);
}
