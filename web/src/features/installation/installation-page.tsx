// The Installation screen (/installation, /user/installation, /admin/installation): pick a website,
// get its snippet (Basic), choose banner position and theme (Advanced), preview the banner and the
// preference centre in any of the banner's languages, and verify that the snippet is live on the site.
// A website's Installation tab passes its `websiteId`: no list to pick from, and the Setup Guide's
// platform instructions follow on the same tab (one place for the one job of installing).
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { BookOpen, Globe, LoaderCircle, ShieldCheck } from 'lucide-react';
import { useRef, useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { SnippetBlock } from '../../components/snippet-block';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { cn } from '../../lib/cn';
import {
  buildEmbedSnippet,
  defaultBannerPosition,
  defaultBannerTheme,
  getProductHost,
  type BannerPosition,
  type BannerTheme,
} from '../../lib/snippet';
import { useSession } from '../auth/use-session';
import { defaultPrimaryColor, getCompanyName, ownerBrandingQueryOptions, publicBrandingQueryOptions } from '../site/queries';
import { websitesQueryOptions } from '../websites/queries';
import { WebsiteStatusBadge } from '../websites/websites-page';
import { BannerPreview } from './banner-preview';
import { PreferenceCentrePreview } from './preference-centre-preview';
import { VerificationResultPanel } from './verification-result';
import { verificationFailedMessage, verifyInstallation, type VerificationResult, type VerificationState } from './verify-installation';


export function InstallationPage({ websiteId }: { websiteId?: string } = {}) {
  const websites = useQuery(websitesQueryOptions());
  const session = useSession();
  // Owners' banners carry their own branding; an admin previews with the installation's.
  const ownerBranding = useQuery({ ...ownerBrandingQueryOptions(), enabled: session.user !== null });
  const installationBranding = useQuery({ ...publicBrandingQueryOptions(), enabled: session.user === null });
  const branding = session.user ? ownerBranding.data : installationBranding.data;
  const { toast } = useToast();
  const [chosenId, setSelectedId] = useState<string | null>(null);
  const selectedId = websiteId ?? chosenId;
  const [position, setPosition] = useState<BannerPosition>(defaultBannerPosition);
  const [theme, setTheme] = useState<BannerTheme>(defaultBannerTheme);
  const [verification, setVerification] = useState<VerificationState>('idle');
  const [result, setResult] = useState<VerificationResult | null>(null);
  // "Missing Information" goes as soon as a website is chosen: it no longer applies.
  const missingWebsite = useRef<{ dismiss: () => void } | null>(null);

  const selected = websites.data?.find((website) => website.id === selectedId) ?? null;
  const snippet = selected ? buildEmbedSnippet({ host: getProductHost(), embedCode: selected.embedCode, position, theme }) : '';

  function selectWebsite(id: string) {
    missingWebsite.current?.dismiss();
    missingWebsite.current = null;
    setSelectedId(id);
    setVerification('idle');
    setResult(null);
  }

  async function verify() {
    if (!selected) {
      missingWebsite.current = toast({ title: 'Missing Information', description: 'Please select a website to verify.', variant: 'destructive' });
      return;
    }
    setVerification('testing');
    setResult(null);
    try {
      const outcome = await verifyInstallation(selected.embedCode);
      setVerification(outcome.state);
      setResult(outcome);
      if (outcome.state === 'success') {
        toast({ title: 'Verification Complete', description: outcome.message });
      } else {
        toast({
          title: 'Verification Failed',
          description: 'Could not verify the installation on your website.',
          variant: 'destructive',
        });
      }
    } catch {
      setVerification('error');
      setResult({ state: 'error', message: verificationFailedMessage, details: null });
      toast({
        title: 'Verification Failed',
        description: 'Could not verify the installation on your website.',
        variant: 'destructive',
      });
    }
  }

  return (
    <>
      {websiteId ? null : <PageHeader title="Installation" description="Add the consent banner to your website." />}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card hidden={websiteId !== undefined}>
          <CardHeader>
            <CardTitle>Your Websites</CardTitle>
            <CardDescription>Choose a website to install.</CardDescription>
          </CardHeader>
          <CardContent>
            {websites.isPending ? (
              <LoadingState />
            ) : websites.isError ? (
              <ErrorState title="Websites could not be loaded." error={websites.error} />
            ) : websites.data.length === 0 ? (
              <EmptyState title="No websites added yet" description="Add a website first to get its embed code." />
            ) : (
              <ul className="space-y-2">
                {websites.data.map((website) => (
                  <li key={website.id}>
                    <button
                      type="button"
                      aria-pressed={website.id === selectedId}
                      onClick={() => selectWebsite(website.id)}
                      className={cn(
                        'flex w-full items-center justify-between gap-3 rounded-md border p-3 text-left transition-colors hover:bg-accent',
                        website.id === selectedId && 'border-primary bg-primary/5',
                      )}
                    >
                      <span className="flex min-w-0 flex-1 items-start gap-2">
                        <Globe className="mt-1 size-4 shrink-0 text-muted-foreground" aria-hidden />
                        <span className="min-w-0 flex-1">
                          <span className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
                            <span className="font-medium wrap-anywhere">{website.name}</span>
                            <WebsiteStatusBadge isActive={website.isActive} />
                          </span>
                          <span className="mt-0.5 block text-xs wrap-anywhere text-muted-foreground">{website.domain}</span>
                        </span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <Card className={websiteId ? 'lg:col-span-3' : 'lg:col-span-2'}>
          <CardHeader>
            <CardTitle>{selected ? `Install on ${selected.name}` : 'Installation Code'}</CardTitle>
            <CardDescription>
              {selected ? selected.domain : 'Choose one of Your Websites to see its installation code.'}
            </CardDescription>
          </CardHeader>
          {selected ? (
            <CardContent>
              <Tabs defaultValue="basic">
                <TabsList>
                  <TabsTrigger value="basic">Basic</TabsTrigger>
                  <TabsTrigger value="advanced">Advanced</TabsTrigger>
                  <TabsTrigger value="preview">Preview</TabsTrigger>
                </TabsList>
                <TabsContent value="basic" className="space-y-4">
                  <SnippetBlock label="Website body code" snippet={snippet} />
                  <div>
                    <h3 className="mb-2 font-medium">Quick setup</h3>
                    <ol className="list-decimal space-y-1 pl-5 text-sm text-muted-foreground">
                      <li>Copy the code above.</li>
                      <li>Paste it into the HTML body of every page, just before the closing &lt;/body&gt; tag.</li>
                      <li>Publish your website.</li>
                      <li>Press Verify Installation below to check that the banner is live.</li>
                    </ol>
                  </div>
                </TabsContent>
                <TabsContent value="advanced" className="space-y-4">
                  <div className="grid gap-4 sm:grid-cols-2">
                    <div className="space-y-2">
                      <Label htmlFor="banner-position">Banner position</Label>
                      <Select value={position} onValueChange={(value) => setPosition(value as BannerPosition)}>
                        <SelectTrigger id="banner-position" aria-label="Banner position">
                          <SelectValue />
                        </SelectTrigger>
                        <SelectContent>
                          <SelectItem value="bottom">Bottom</SelectItem>
                          <SelectItem value="top">Top</SelectItem>
                        </SelectContent>
                      </Select>
                    </div>
                    <div className="space-y-2">
                      <Label htmlFor="banner-theme">Theme</Label>
                      <Select value={theme} onValueChange={(value) => setTheme(value as BannerTheme)}>
                        <SelectTrigger id="banner-theme" aria-label="Theme">
                          <SelectValue />
                        </SelectTrigger>
                        <SelectContent>
                          <SelectItem value="light">Light</SelectItem>
                          <SelectItem value="dark">Dark</SelectItem>
                        </SelectContent>
                      </Select>
                    </div>
                  </div>
                  <SnippetBlock label="Website body code" snippet={snippet} />
                </TabsContent>
                <TabsContent value="preview">
                  <BannerPreview
                    companyName={getCompanyName(branding)}
                    primaryColor={branding?.primaryColor ?? defaultPrimaryColor}
                    logoUrl={branding?.logoUrl}
                    position={position}
                    theme={theme}
                  />
                  {/* Keyed by website: another website starts in its own default language. */}
                  <PreferenceCentrePreview key={selected.embedCode} embedCode={selected.embedCode} theme={theme} />
                </TabsContent>
              </Tabs>
            </CardContent>
          ) : null}
        </Card>
      </div>

      <div className="mt-6 grid grid-cols-1 items-start gap-6 lg:grid-cols-3">
        <Card className={websiteId ? 'lg:col-span-3' : 'lg:col-span-2'}>
          <CardHeader>
            <CardTitle>Verify Installation</CardTitle>
            <CardDescription>Check that the banner script is live on {selected ? selected.domain : 'your website'}.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <Button onClick={() => void verify()} disabled={verification === 'testing'}>
              {verification === 'testing' ? <LoaderCircle className="animate-spin" aria-hidden /> : <ShieldCheck aria-hidden />}
              {verification === 'testing' ? 'Verifying...' : 'Verify Installation'}
            </Button>
            <VerificationResultPanel result={result} />
          </CardContent>
        </Card>
        <Card hidden={websiteId !== undefined}>
          <CardHeader>
            <CardTitle>Documentation and Support</CardTitle>
            <CardDescription>Step-by-step instructions for HTML, WordPress, Shopify and React.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild variant="outline" className="w-full">
              <Link to={session.admin ? '/admin/setup-instructions' : '/user/setup-instructions'}>
                <BookOpen aria-hidden />
                Open Setup Guide
              </Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
