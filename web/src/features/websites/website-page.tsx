// One website's page (/websites/$websiteId/…): its header (name, domain, status, a switcher to the
// owner's other websites) and a tab bar of links, one route per tab; the open tab renders below.
// A website the viewer cannot see (not in their list: another owner's, removed) is a not-found state.
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { ErrorState, LoadingState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { cn } from '../../lib/cn';
import { useSession } from '../auth/use-session';
import { websitesQueryOptions, type Website } from './queries';
import { getWebsitesPath } from './redirects';
import { WebsiteSelect } from './website-select';
import { getWebsiteTabOfPath, getWebsiteTabPath, websiteTabs, type WebsiteTab } from './website-tabs';
import { WebsiteStatusBadge } from './websites-page';

export function WebsitePage({ websiteId, children }: { websiteId: string; children: ReactNode }) {
  const websites = useQuery(websitesQueryOptions());
  const session = useSession();
  const websitesPath = getWebsitesPath(session);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const activeTab = getWebsiteTabOfPath(pathname) ?? 'overview';

  if (websites.isPending) return <LoadingState />;
  if (websites.isError) return <ErrorState title="Websites could not be loaded." error={websites.error} />;
  const website = websites.data.find((item) => item.id === websiteId);
  if (!website) {
    return (
      <Card>
        <div className="flex flex-col items-center gap-3 py-10 text-center">
          <h1 className="text-lg font-medium">Website not found</h1>
          <p className="max-w-md text-sm text-muted-foreground">This website does not exist, was removed, or belongs to another account.</p>
          <Button asChild variant="outline">
            <Link to={websitesPath}>
              <ArrowLeft aria-hidden />
              Back to Websites
            </Link>
          </Button>
        </div>
      </Card>
    );
  }

  return (
    <>
      <Button asChild variant="ghost" size="sm" className="-ml-3 mb-2">
        <Link to={websitesPath}>
          <ArrowLeft aria-hidden />
          All websites
        </Link>
      </Button>
      <WebsiteHeader website={website} websites={websites.data} activeTab={activeTab} />
      <WebsiteTabBar websiteId={website.id} activeTab={activeTab} />
      <div className="mt-6">{children}</div>
    </>
  );
}

function WebsiteHeader({ website, websites, activeTab }: { website: Website; websites: Website[]; activeTab: WebsiteTab }) {
  const navigate = useNavigate();
  return (
    <div className="mb-4 flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
      <div className="min-w-0">
        <h1 className="flex flex-wrap items-center gap-x-3 gap-y-1 text-2xl font-bold tracking-tight">
          <span className="break-words">{website.name}</span>
          <WebsiteStatusBadge isActive={website.isActive} />
        </h1>
        <p className="text-muted-foreground wrap-anywhere">{website.domain}</p>
      </div>
      {websites.length > 1 ? (
        // Another website opens on the same tab, as Plausible's site switcher does.
        <div className="w-full space-y-1 md:w-72">
          <Label htmlFor="website-switcher" className="text-xs text-muted-foreground">
            Switch website
          </Label>
          <WebsiteSelect
            id="website-switcher"
            websites={websites}
            value={website.id}
            onValueChange={(websiteId) => void navigate({ to: getWebsiteTabPath(activeTab), params: { websiteId } })}
          />
        </div>
      ) : null}
    </div>
  );
}

function WebsiteTabBar({ websiteId, activeTab }: { websiteId: string; activeTab: WebsiteTab }) {
  const list = useRef<HTMLUListElement>(null);
  // On a phone the bar is wider than the screen: keep the open tab in sight (Webhooks is off to the right).
  useEffect(() => {
    const bar = list.current;
    const active = bar?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!bar || !active) return;
    // The list is positioned, so it is the link's offsetParent: offsetLeft is within the scrolled content.
    const left = active.offsetLeft;
    if (left < bar.scrollLeft || left + active.offsetWidth > bar.scrollLeft + bar.clientWidth) {
      bar.scrollLeft = left - (bar.clientWidth - active.offsetWidth) / 2;
    }
  }, [activeTab]);
  return (
    // Links, not ARIA tabs: each tab is a page with its own URL. On phones the bar scrolls sideways.
    <nav aria-label="Website sections" className="-mx-4 border-b sm:mx-0">
      <ul ref={list} className="relative flex gap-1 overflow-x-auto px-4 sm:px-0 [scrollbar-width:thin]">
        {websiteTabs.map((tab) => {
          const active = tab.slug === activeTab;
          return (
            <li key={tab.slug} className="shrink-0">
              <Link
                to={getWebsiteTabPath(tab.slug)}
                params={{ websiteId }}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  '-mb-px inline-flex h-10 items-center whitespace-nowrap border-b-2 px-3 text-sm font-medium transition-colors',
                  active ? 'border-primary text-primary' : 'border-transparent text-muted-foreground hover:border-muted-foreground/40 hover:text-foreground',
                )}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The heading of a tab's content: what the tab is for, in a sentence. */
export function WebsiteTabHeading({ title, description, action }: { title: string; description: string; action?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
      <div>
        <h2 className="text-xl font-semibold">{title}</h2>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      {action}
    </div>
  );
}
