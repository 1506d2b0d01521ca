// The sidebar's navigation, organised around the owner's websites (issue 28, after Plausible and
// Cookiebot): owners get Overview (all websites, /dashboard), Websites, Leads and Account; everything
// about one website (consent, traffic, banner, scan, installation, webhooks) is a tab of its page,
// /websites/$websiteId/…, reached from Websites. Admins keep their own items (Dashboard, Websites under
// /admin, Leads, Settings for the installation's branding, Website Editor, User Management) and open
// websites through the same page. The spec's older screens redirect (features/websites/redirects.ts).
// `to` is typed by the generated route tree, so every entry is a real route.
import { Globe, LayoutDashboard, PenLine, Settings, UserCheck, UserRound, Users, type LucideIcon } from 'lucide-react';
import type { FileRouteTypes } from '../../routeTree.gen';

export type NavigationMode = 'admin' | 'user';

export interface NavigationItem {
  label: string;
  to: FileRouteTypes['to'];
  icon: LucideIcon;
  /** Also marked current on the pages under it (Websites on a website's page). */
  includesNested?: boolean;
}

export function getNavigation(mode: NavigationMode): NavigationItem[] {
  if (mode === 'admin') {
    return [
      { label: 'Dashboard', to: '/admin', icon: LayoutDashboard },
      { label: 'Websites', to: '/admin/websites', icon: Globe },
      { label: 'Leads', to: '/leads', icon: UserCheck, includesNested: true },
      { label: 'Settings', to: '/admin/settings', icon: Settings },
      { label: 'Website Editor', to: '/website-editor', icon: PenLine },
      { label: 'User Management', to: '/user-management', icon: Users },
    ];
  }
  return [
    { label: 'Overview', to: '/dashboard', icon: LayoutDashboard },
    { label: 'Websites', to: '/websites', icon: Globe, includesNested: true },
    { label: 'Leads', to: '/leads', icon: UserCheck, includesNested: true },
    // An owner's own account (name, email, password, deletion); admins have theirs at /admin/password.
    { label: 'Account', to: '/account', icon: UserRound },
  ];
}
