// The Setup Guide (/setup-instructions, /user/…, /admin/…): how to install the banner on common
// platforms, configure it and test it, with troubleshooting. Snippets carry the chosen website's
// embed code in the `data-consentry-id` form the widget also accepts. A website's Installation tab
// shows it under the snippet for its `websiteId`, as a section instead of a page.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { SnippetBlock } from '../../components/snippet-block';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue, wrappingTrigger } from '../../components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { getProductHost } from '../../lib/snippet';
import { websitesQueryOptions } from '../websites/queries';

const placeholderCode = 'YOUR_EMBED_CODE';

function buildGuideSnippet(host: string, embedCode: string): string {
  return `<script src="${host}/widget.js" data-consentry-id="${embedCode}" defer></script>`;
}

function buildReactSnippet(host: string, embedCode: string): string {
  return `import { useEffect } from 'react';

export function ConsentBanner() {
  useEffect(() => {
    const script = document.createElement('script');
    script.src = '${host}/widget.js';
    script.dataset.consentryId = '${embedCode}';
    document.body.appendChild(script);
    return () => script.remove();
  }, []);
  return null;
}`;
}

const troubleshooting = [
  {
    problem: 'The banner does not appear',
    fix: 'Check that the script is in the published HTML, that the website is Active, and that your browser has not stored an earlier choice (open a private window).',
  },
  {
    problem: 'Verification fails',
    fix: 'Make sure the website URL is reachable from the internet and that the embed code matches the one on the Installation screen.',
  },
  {
    problem: 'The script is blocked',
    fix: 'Allow this host in your Content Security Policy (script-src and connect-src).',
  },
  {
    problem: 'No consents are recorded',
    fix: 'The domain of the website must match the domain you entered when adding it (subdomains such as www are accepted).',
  },
];

export function SetupGuidePage({ websiteId: fixedWebsiteId }: { websiteId?: string } = {}) {
  const websites = useQuery(websitesQueryOptions());
  const [chosenId, setWebsiteId] = useState<string | undefined>(undefined);
  const websiteId = fixedWebsiteId ?? chosenId;
  const website = websites.data?.find((item) => item.id === websiteId) ?? websites.data?.[0];
  const embedCode = website?.embedCode ?? placeholderCode;
  const host = getProductHost();
  const snippet = buildGuideSnippet(host, embedCode);

  return (
    <>
      {fixedWebsiteId ? (
        <div className="mt-8 mb-4">
          <h2 className="text-xl font-semibold">Setup Guide</h2>
          <p className="text-sm text-muted-foreground">Install, configure and test your consent banner.</p>
        </div>
      ) : (
        <PageHeader title="Setup Guide" description="Install, configure and test your consent banner." />
      )}
      {!fixedWebsiteId && websites.data && websites.data.length > 0 ? (
        <div className="mb-6 max-w-sm space-y-2">
          <Label htmlFor="guide-website">Website</Label>
          <Select value={website?.id} onValueChange={setWebsiteId}>
            <SelectTrigger id="guide-website" aria-label="Website" className={wrappingTrigger}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {websites.data.map((item) => (
                <SelectItem key={item.id} value={item.id}>
                  {item.name} ({item.domain})
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      ) : null}
      <Tabs defaultValue="overview">
        <TabsList className="grid h-auto w-full grid-cols-2 sm:inline-flex sm:h-10 sm:w-auto">
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="installation">Installation</TabsTrigger>
          <TabsTrigger value="configuration">Configuration</TabsTrigger>
          <TabsTrigger value="testing">Testing</TabsTrigger>
        </TabsList>

        <TabsContent value="overview">
          <Card>
            <CardHeader>
              <CardTitle>How it works</CardTitle>
              <CardDescription>Setup takes about 5 minutes.</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4 text-sm">
              <ol className="list-decimal space-y-2 pl-5">
                <li>Add your website on the Websites screen to get its embed code.</li>
                <li>Paste the script into your website&apos;s HTML body.</li>
                <li>Visitors see the consent banner; each choice is recorded with its time and location.</li>
                <li>Watch consents arrive on your dashboard in real time.</li>
              </ol>
              <div className="rounded-md border bg-muted/40 p-4">
                <p className="font-medium">Guided setup</p>
                <p className="text-muted-foreground">
                  A guided setup session with our team is included in the Pro and Business plans.
                </p>
                <Button asChild size="sm" variant="outline" className="mt-3">
                  <Link to="/pricing">See plans</Link>
                </Button>
              </div>
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="installation">
          <Card>
            <CardHeader>
              <CardTitle>Install the script</CardTitle>
              <CardDescription>Choose your platform.</CardDescription>
            </CardHeader>
            <CardContent>
              <Tabs defaultValue="html">
                <TabsList className="grid h-auto w-full grid-cols-2 sm:inline-flex sm:h-10 sm:w-auto">
                  <TabsTrigger value="html">HTML</TabsTrigger>
                  <TabsTrigger value="wordpress">WordPress</TabsTrigger>
                  <TabsTrigger value="shopify">Shopify</TabsTrigger>
                  <TabsTrigger value="react">React</TabsTrigger>
                </TabsList>
                <TabsContent value="html" className="space-y-3 text-sm">
                  <p>Paste this just before the closing &lt;/body&gt; tag of every page:</p>
                  <SnippetBlock label="HTML snippet" snippet={snippet} />
                </TabsContent>
                <TabsContent value="wordpress" className="space-y-3 text-sm">
                  <ol className="list-decimal space-y-1 pl-5">
                    <li>Install a plugin that adds code to the footer, such as &quot;WPCode&quot;, or edit your theme&apos;s footer.php.</li>
                    <li>Add the snippet below to the site-wide footer (body) section.</li>
                    <li>Save, then clear any page cache.</li>
                  </ol>
                  <SnippetBlock label="WordPress snippet" snippet={snippet} />
                </TabsContent>
                <TabsContent value="shopify" className="space-y-3 text-sm">
                  <ol className="list-decimal space-y-1 pl-5">
                    <li>In Shopify admin, open Online Store → Themes → Edit code.</li>
                    <li>Open layout/theme.liquid.</li>
                    <li>Paste the snippet just before &lt;/body&gt; and save.</li>
                  </ol>
                  <SnippetBlock label="Shopify snippet" snippet={snippet} />
                </TabsContent>
                <TabsContent value="react" className="space-y-3 text-sm">
                  <p>Render this component once, for example in your app&apos;s root layout:</p>
                  <SnippetBlock label="React component" snippet={buildReactSnippet(host, embedCode)} />
                </TabsContent>
              </Tabs>
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="configuration">
          <Card>
            <CardHeader>
              <CardTitle>Configuration</CardTitle>
              <CardDescription>The script is configured with data attributes.</CardDescription>
            </CardHeader>
            <CardContent className="space-y-3 text-sm">
              <ul className="space-y-2">
                <li>
                  <code className="rounded bg-muted px-1">data-position</code>: <code>bottom</code> (default) or{' '}
                  <code>top</code>.
                </li>
                <li>
                  <code className="rounded bg-muted px-1">data-theme</code>: <code>light</code> (default) or{' '}
                  <code>dark</code>.
                </li>
                <li>
                  <code className="rounded bg-muted px-1">data-consentry-track=&quot;map&quot;</code> or{' '}
                  <code>&quot;hours&quot;</code> on an element counts views of your location map or opening hours.
                </li>
                <li>
                  <code className="rounded bg-muted px-1">data-consentry-contact</code> on a form counts contact form
                  submissions.
                </li>
              </ul>
              <p className="text-muted-foreground">
                Your logo, company name and colour come from the branding settings and need no attributes.
              </p>
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="testing">
          <Card>
            <CardHeader>
              <CardTitle>Testing</CardTitle>
              <CardDescription>Check that everything works.</CardDescription>
            </CardHeader>
            <CardContent className="space-y-3 text-sm">
              <ol className="list-decimal space-y-1 pl-5">
                <li>Open your website in a private browser window: the banner should appear.</li>
                <li>Choose Accept All or Decline.</li>
                <li>Open your dashboard: the choice appears under Recent Consent Activity within seconds.</li>
                <li>Use Verify Installation on the Installation screen to check the script from our side.</li>
              </ol>
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>

      <Card className="mt-6">
        <CardHeader>
          <CardTitle>Troubleshooting</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="space-y-4 text-sm">
            {troubleshooting.map(({ problem, fix }) => (
              <div key={problem}>
                <dt className="font-medium">{problem}</dt>
                <dd className="text-muted-foreground">{fix}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
    </>
  );
}
