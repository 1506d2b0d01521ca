// The signed-in shell (spec "Shared layout"): a fixed left sidebar with the brand, navigation, logout
// and, for non-admins, an upgrade box; a top bar with the mobile menu toggle, the brand, notifications
// and the signed-in person's name. On small screens the sidebar slides in over the page.
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { Crown, LogOut, Menu, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { useLiveUpdates } from '../../lib/live-updates';
import { getSessionLabel } from '../auth/queries';
import { useSession } from '../auth/use-session';
import { BrandMark } from '../site/brand-mark';
import { publicBrandingQueryOptions } from '../site/queries';
import { getNavigation } from './navigation';
import { NotificationsMenu } from './notifications-menu';
import { useLogout } from './use-logout';

const plansAtOrAbovePro = new Set(['pro', 'business', 'professional', 'enterprise']);

export function AppLayout() {
  const session = useSession();
  const mode = session.admin ? 'admin' : 'user';
  const { data: branding } = useQuery(publicBrandingQueryOptions());
  const [menuOpen, setMenuOpen] = useState(false);
  const { logout, busy } = useLogout(mode);
  const navigate = useNavigate();
  useLiveUpdates();

  const closeMenu = () => setMenuOpen(false);
  // Owners on Pro or above are not asked to upgrade to Pro.
  const onUpgradeablePlan = !plansAtOrAbovePro.has(session.user?.subscriptionTier ?? 'free');
  const userLabel = getSessionLabel(session);

  return (
    <div className="min-h-screen bg-muted/40">
      {menuOpen ? (
        <div className="fixed inset-0 z-40 bg-black/50 lg:hidden" aria-hidden onClick={closeMenu} />
      ) : null}
      <aside
        id="app-sidebar"
        className={cn(
          'fixed inset-y-0 left-0 z-50 flex w-64 flex-col border-r bg-background transition-transform motion-reduce:transition-none lg:translate-x-0',
          menuOpen ? 'translate-x-0' : '-translate-x-full',
        )}
      >
        <div className="flex h-16 items-center justify-between border-b px-4">
          <Link to={mode === 'admin' ? '/admin' : '/dashboard'} onClick={closeMenu} aria-label={mode === 'admin' ? 'Dashboard' : 'Overview'}>
            <BrandMark branding={branding} />
          </Link>
          <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Close menu" onClick={closeMenu}>
            <X aria-hidden />
          </Button>
        </div>
        <nav aria-label="Main" className="flex-1 overflow-y-auto p-3">
          <ul className="space-y-1">
            {getNavigation(mode).map(({ label, to, icon: Icon, includesNested }) => (
              <li key={label}>
                {/* Search parameters are filters of the same screen (/leads?q=…): still current. */}
                <Link
                  to={to}
                  onClick={closeMenu}
                  activeOptions={{ exact: !includesNested, includeSearch: false }}
                  className="flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground"
                  activeProps={{ className: 'bg-primary/10 text-primary hover:bg-primary/10 hover:text-primary' }}
                >
                  <Icon className="size-4" aria-hidden />
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {mode === 'user' ? (
          <div className="mx-3 mb-3 rounded-lg bg-gradient-to-br from-primary to-blue-700 p-4 text-primary-foreground">
            <p className="flex items-center gap-2 font-semibold">
              <Crown className="size-4" aria-hidden />
              {onUpgradeablePlan ? 'Upgrade to Pro' : 'Your plan'}
            </p>
            <p className="mt-1 text-sm opacity-90">
              {onUpgradeablePlan
                ? 'More websites, more consents and B2B data.'
                : 'Websites and consents used this month against your plan.'}
            </p>
            <Button asChild size="sm" variant="secondary" className="mt-3 w-full">
              <Link to="/subscription" onClick={closeMenu}>
                View plan and usage
              </Link>
            </Button>
          </div>
        ) : null}
        <div className="border-t p-3">
          <Button variant="ghost" className="w-full justify-start" disabled={busy} onClick={() => void logout()}>
            <LogOut aria-hidden />
            Logout
          </Button>
        </div>
      </aside>

      <div className="lg:pl-64">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b bg-background px-4 sm:px-6">
          <Button
            variant="ghost"
            size="icon"
            className="lg:hidden"
            aria-label="Open menu"
            aria-controls="app-sidebar"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(true)}
          >
            <Menu aria-hidden />
          </Button>
          <div className="lg:hidden">
            <BrandMark branding={branding} />
          </div>
          <div className="ml-auto flex items-center gap-2">
            <NotificationsMenu viewer={session.admin ? `admin:${session.admin.username}` : `user:${session.user?.id ?? ''}`} onOpenDashboard={() => void navigate({ to: mode === 'admin' ? '/admin' : '/dashboard' })} />
            {session.user && !session.admin ? (
              <Link to="/account" className="max-w-48 truncate text-sm font-medium hover:underline" title={`${userLabel}: your account`}>
                {userLabel}
              </Link>
            ) : (
              <span className="max-w-48 truncate text-sm font-medium" title={userLabel}>
                {userLabel}
              </span>
            )}
          </div>
        </header>
        <main className="mx-auto max-w-7xl p-4 sm:p-6">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
