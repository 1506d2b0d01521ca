// The Export screen (/export, /user/export, /admin/export): choose all websites or one and CSV or
// JSON, then download. The button reads 'Exporting...' while the file is prepared (spec section 4).
// Recent Exports lists what the api recorded (GET /api/exports), refreshed after each download.
// The old routes redirect to a website's Consent tab, which shows this as its Export section (`websiteId`
// chosen first, All Websites still offered): exports are of consent records, and owners look for them there.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, FileDown, TriangleExclamationPoint } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { EmptyState, LoadingState } from '../../components/query-state';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue, wrappingTrigger } from '../../components/ui/select';
import { formatDateTime, formatNumber } from '../../lib/format';
import { websitesQueryOptions, type Website } from '../websites/queries';
import { downloadExport, type ExportFormat } from './download-export';
import { recentExportsQueryOptions, type RecentExport } from './queries';

const allWebsites = 'all';

const exportContents = [
  'Consent ID and timestamp',
  'Website information (name and domain)',
  'Consent choice (accepted or declined)',
  'Visitor IP address',
  'User agent',
  'Geographic data (country and city)',
];

export function ExportPage({ websiteId: initialWebsiteId }: { websiteId?: string } = {}) {
  const websites = useQuery(websitesQueryOptions());
  const [websiteId, setWebsiteId] = useState(initialWebsiteId ?? allWebsites);
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [exporting, setExporting] = useState(false);
  const queryClient = useQueryClient();
  const { toast } = useToast();

  const selectedWebsite = websites.data?.find((website) => website.id === websiteId);

  async function exportData() {
    setExporting(true);
    try {
      await downloadExport({ format, websiteId: selectedWebsite?.id });
      toast({ title: 'Export successful', description: 'Your consent data has been downloaded.' });
      // The api records the export before the download completes.
      void queryClient.invalidateQueries({ queryKey: recentExportsQueryOptions().queryKey });
    } catch {
      toast({ title: 'Export failed', description: 'Failed to export data. Please try again.', variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  }

  return (
    <>
      {initialWebsiteId ? (
        <div className="mb-4">
          <h2 className="text-xl font-semibold">Export Data</h2>
          <p className="text-sm text-muted-foreground">Download your consent records for audits and analysis.</p>
        </div>
      ) : (
        <PageHeader title="Export Data" description="Download your consent records for audits and analysis." />
      )}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Export Consent Data</CardTitle>
            <CardDescription>Choose a website and a file format.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <div className="space-y-2">
              <Label htmlFor="export-website">Website</Label>
              <Select value={websiteId} onValueChange={setWebsiteId} disabled={exporting}>
                <SelectTrigger id="export-website" aria-label="Website" className={wrappingTrigger}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={allWebsites}>All Websites</SelectItem>
                  {(websites.data ?? []).map((website) => (
                    <SelectItem key={website.id} value={website.id}>
                      {website.name} ({website.domain})
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="space-y-2">
              <Label htmlFor="export-format">Format</Label>
              <Select value={format} onValueChange={(value) => setFormat(value as ExportFormat)} disabled={exporting}>
                <SelectTrigger id="export-format" aria-label="Format">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="csv">CSV</SelectItem>
                  <SelectItem value="json">JSON</SelectItem>
                </SelectContent>
              </Select>
            </div>
            <Button onClick={() => void exportData()} disabled={exporting} className="w-full sm:w-auto">
              <Download aria-hidden />
              {exporting ? 'Exporting...' : 'Export Data'}
            </Button>
          </CardContent>
        </Card>

        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle className="text-base">What the export contains</CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
                {exportContents.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </CardContent>
          </Card>
          <Card className="border-yellow-300 bg-yellow-50">
            <CardHeader className="flex-row items-start gap-3">
              <TriangleExclamationPoint className="size-5 shrink-0 text-yellow-700" aria-hidden />
              <div className="space-y-1">
                <CardTitle className="text-base">Personal data</CardTitle>
                <CardDescription className="text-yellow-900">
                  Exported files contain personal data such as IP addresses. Store them securely and delete them when
                  you no longer need them.
                </CardDescription>
              </div>
            </CardHeader>
          </Card>
        </div>
      </div>

      <RecentExportsCard websites={websites.data ?? []} />
    </>
  );
}

function describeWebsite(websiteId: string | null, websites: Website[]): string {
  if (websiteId === null) return 'All Websites';
  const website = websites.find((item) => item.id === websiteId);
  return website ? `${website.name} (${website.domain})` : 'A removed website';
}

function RecentExportsCard({ websites }: { websites: Website[] }) {
  const exports = useQuery(recentExportsQueryOptions());
  return (
    <Card className="mt-6" role="region" aria-labelledby="recent-exports-title">
      <CardHeader>
        <CardTitle id="recent-exports-title">Recent Exports</CardTitle>
        <CardDescription>Your latest downloads of consent data</CardDescription>
      </CardHeader>
      <CardContent>
        {exports.isPending ? (
          <LoadingState />
        ) : exports.isError ? (
          <p className="py-8 text-center text-muted-foreground">No data available</p>
        ) : exports.data.length === 0 ? (
          <EmptyState title="No exports yet" description="Your exported files will be listed here." />
        ) : (
          <ul className="divide-y">
            {exports.data.map((item: RecentExport) => (
              <li key={item.id} className="flex items-center gap-3 py-3">
                <FileDown className="size-5 shrink-0 text-muted-foreground" aria-hidden />
                <div className="min-w-0">
                  <p className="font-medium wrap-anywhere">{describeWebsite(item.websiteId, websites)}</p>
                  <p className="text-sm text-muted-foreground">
                    {item.format.toUpperCase()} · {formatNumber(item.rowCount)} {item.rowCount === 1 ? 'record' : 'records'} ·{' '}
                    {formatDateTime(item.exportedAt)}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
