// `/websites/$websiteId/banner`: what the website's banner asks and says (settings), and the owner's branding.
import { createFileRoute } from '@tanstack/react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../../components/ui/card';
import { useSession } from '../../../../features/auth/use-session';
import { BrandingCard } from '../../../../features/settings/branding-card';
import { ownerBrandingQueryOptions } from '../../../../features/site/queries';
import { websiteSettingsQueryOptions } from '../../../../features/website-settings/queries';
import { WebsiteSettingsForm } from '../../../../features/website-settings/website-settings-form';
import { useWebsite } from '../../../../features/websites/use-website';
import { WebsiteTabHeading } from '../../../../features/websites/website-page';
import { prefetchScreenData } from '../../../../lib/screen-data';

export const Route = createFileRoute('/_app/websites/$websiteId/banner')({
  loader: ({ context: { queryClient, session }, params: { websiteId } }) =>
    prefetchScreenData([
      queryClient.ensureQueryData(websiteSettingsQueryOptions(websiteId)),
      ...(session.user ? [queryClient.ensureQueryData(ownerBrandingQueryOptions())] : []),
    ]),
  component: BannerRoute,
});

function BannerRoute() {
  const website = useWebsite(Route.useParams().websiteId);
  const session = useSession();
  return (
    <>
      <WebsiteTabHeading title="Banner" description="What the banner asks visitors, in which languages and regions, and how long choices are kept." />
      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card role="region" aria-labelledby="website-settings-title">
          <CardHeader>
            <CardTitle id="website-settings-title">Website settings</CardTitle>
            <CardDescription>
              Data retention, IP address storage, the banner, the consent purposes it asks for, its languages, the rules by region and Lead identification on{' '}
              {website.name}.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <WebsiteSettingsForm websiteId={website.id} fields="all" />
          </CardContent>
        </Card>
        {/* An owner's branding is on every one of their banners; an admin brands the installation in Settings. */}
        {session.user ? <BrandingCard scope="owner" /> : null}
      </div>
    </>
  );
}
