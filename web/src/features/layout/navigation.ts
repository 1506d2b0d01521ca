// The sidebar's navigation (spec "Shared layout"), in the spec's order. Admin mode uses the /admin
// prefix for Websites, Export, Installation, Setup Guide and Settings and adds Website Editor and User
// Management; user mode uses the /user prefix. Website Analytics, Analytics & Consent and
// Recommendations have one route for both modes, as has Leads (an admin sees every website's leads).
// Owners also get Account (/account). `to` is typed by the generated route tree, so every entry is a real route.
import {
  BookOpen,
  ChartColumn,
  ChartLine,
  Download,
  Globe,
  LayoutDashboard,
  Lightbulb,
  PenLine,
  Settings,
  UserCheck,
  UserRound,
  Users,
  Wrench,
  type LucideIcon,
} from 'lucide-react';
import type { FileRouteTypes } from '../../routeTree.gen';

export type NavigationMode = 'admin' | 'user';

export interface NavigationItem {
  label: string;
  to: FileRouteTypes['to'];
  icon: LucideIcon;
}

export function getNavigation(mode: NavigationMode): NavigationItem[] {
  const admin = mode === 'admin';
  const items: NavigationItem[] = [
    { label: 'Dashboard', to: admin ? '/admin' : '/dashboard', icon: LayoutDashboard },
    { label: 'Websites', to: admin ? '/admin/websites' : '/user/websites', icon: Globe },
    { label: 'Website Analytics', to: '/website-analytics', icon: ChartColumn },
    { label: 'Analytics & Consent', to: '/analytics', icon: ChartLine },
    { label: 'Leads', to: '/leads', icon: UserCheck },
    { label: 'Recommendations', to: '/recommendations', icon: Lightbulb },
    { label: 'Export', to: admin ? '/admin/export' : '/user/export', icon: Download },
    { label: 'Installation', to: admin ? '/admin/installation' : '/user/installation', icon: Wrench },
    { label: 'Setup Guide', to: admin ? '/admin/setup-instructions' : '/user/setup-instructions', icon: BookOpen },
    { label: 'Settings', to: admin ? '/admin/settings' : '/user/settings', icon: Settings },
  ];
  // An owner's own account (name, email, password, deletion); admins have theirs at /admin/password.
  if (!admin) items.push({ label: 'Account', to: '/account', icon: UserRound });
  if (admin) {
    items.push(
      { label: 'Website Editor', to: '/website-editor', icon: PenLine },
      { label: 'User Management', to: '/user-management', icon: Users },
    );
  }
  return items;
}
