// The footer of the public pages: product, support and legal links, the owners' Login link (the
// admins' sign-in is linked from there), copyright of the current year.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { BrandMark } from './brand-mark';
import { getCompanyName, publicBrandingQueryOptions, publicWebsiteContentQueryOptions, withDefaultContent } from './queries';

const linkClass = 'text-sm text-muted-foreground hover:text-foreground';

export function PublicFooter() {
  const { data: branding } = useQuery(publicBrandingQueryOptions());
  const { data: content } = useQuery(publicWebsiteContentQueryOptions());
  const { footerText } = withDefaultContent(content);

  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div className="space-y-3">
          <BrandMark branding={branding} />
          <p className="text-sm text-muted-foreground">{footerText}</p>
        </div>
        <nav aria-label="Product" className="flex flex-col gap-2">
          <h2 className="text-sm font-semibold">Product</h2>
          <Link to="/" hash="features" className={linkClass}>
            Features
          </Link>
          <Link to="/" hash="how-it-works" className={linkClass}>
            Documentation
          </Link>
          <Link to="/" hash="integration" className={linkClass}>
            Integration
          </Link>
        </nav>
        <nav aria-label="Support" className="flex flex-col gap-2">
          <h2 className="text-sm font-semibold">Support</h2>
          <Link to="/pricing" hash="faq" className={linkClass}>
            Help Center
          </Link>
          <Link to="/privacy" hash="contact" className={linkClass}>
            Contact
          </Link>
          <Link to="/login" className={linkClass}>
            Login
          </Link>
        </nav>
        <nav aria-label="Legal" className="flex flex-col gap-2">
          <h2 className="text-sm font-semibold">Legal</h2>
          <Link to="/privacy" className={linkClass}>
            Privacy
          </Link>
          <Link to="/privacy-policy" hash="rights" className={linkClass}>
            GDPR
          </Link>
        </nav>
      </div>
      <div className="border-t py-6 text-center text-sm text-muted-foreground">
        © {new Date().getFullYear()} {getCompanyName(branding)}. All rights reserved.
      </div>
    </footer>
  );
}
