// Settings → Privacy: the retention period (whole number of months, 1 to 120, default 24) and IP
// address storage of one website, read and saved through /api/websites/{id}/settings. With several
// websites the owner picks which one; the first is chosen to start with.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { LoadingState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { getServerMessage } from '../../lib/api';
import { useSession } from '../auth/use-session';
import { WebsiteSettingsForm } from '../website-settings/website-settings-form';
import { websitesQueryOptions } from '../websites/queries';
import { getWebsitesPath } from '../websites/redirects';
import { WebsiteSelect } from '../websites/website-select';

export function PrivacyCard() {
  const websites = useQuery(websitesQueryOptions());
  const session = useSession();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const list = websites.data ?? [];
  const website = list.find((item) => item.id === chosenId) ?? list[0] ?? null;

  return (
    <Card role="region" aria-labelledby="privacy-title">
      <CardHeader>
        <CardTitle id="privacy-title">Privacy</CardTitle>
        <CardDescription>How long consent data is kept and how IP addresses are stored, per website.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {websites.isPending ? (
          <LoadingState className="text-sm text-muted-foreground" />
        ) : websites.isError ? (
          <p className="text-sm text-muted-foreground">{getServerMessage(websites.error)}</p>
        ) : website === null ? (
          <div className="space-y-3">
            <p className="text-sm text-muted-foreground">No websites added yet</p>
            <Button asChild variant="outline">
              <Link to={getWebsitesPath(session)}>Add a website</Link>
            </Button>
          </div>
        ) : (
          <>
            {list.length > 1 ? (
              <div className="space-y-2">
                <Label htmlFor="privacy-website">Website</Label>
                <WebsiteSelect id="privacy-website" websites={list} value={website.id} onValueChange={setChosenId} />
              </div>
            ) : (
              <p className="text-sm">
                <span className="text-muted-foreground">Website: </span>
                <span className="font-medium wrap-anywhere">
                  {website.name} ({website.domain})
                </span>
              </p>
            )}
            <WebsiteSettingsForm websiteId={website.id} fields="privacy" />
          </>
        )}
      </CardContent>
    </Card>
  );
}
