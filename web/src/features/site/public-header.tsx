// The header of the public pages: brand, Pricing and Get Started (which signs in through the api).
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Button } from '../../components/ui/button';
import { BrandMark } from './brand-mark';
import { publicBrandingQueryOptions } from './queries';

export function PublicHeader() {
  const { data: branding } = useQuery(publicBrandingQueryOptions());
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" aria-label="Home">
          <BrandMark branding={branding} />
        </Link>
        <nav aria-label="Main" className="flex shrink-0 items-center gap-1 sm:gap-4">
          <Button asChild variant="ghost" className="px-3 sm:px-4">
            <Link to="/pricing">Pricing</Link>
          </Button>
          <Button asChild className="px-3 sm:px-4">
            <a href="/api/login">Get Started</a>
          </Button>
        </nav>
      </div>
    </header>
  );
}
