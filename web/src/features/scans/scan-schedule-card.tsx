// The Cookie scan tab's "Scheduled scans" card: how often the system scans the website on its own
// (the website setting `scanIntervalDays`, 0–365 days, 0 turning scheduled scans off). Read from the
// website's settings query; Save PATCHes that one setting and refreshes that query only.
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { getErrorStatus, getServerMessage } from '../../lib/api';
import { websiteSettingsQueryOptions, type WebsiteSettings } from '../website-settings/queries';
import {
  checkScanIntervalDays,
  defaultScanIntervalDays,
  scanIntervalDaysMax,
  scanIntervalDaysMin,
  useUpdateScanInterval,
} from './queries';

export function ScanScheduleCard({ websiteId }: { websiteId: string }) {
  const settings = useQuery({
    ...websiteSettingsQueryOptions(websiteId),
    select: (saved: WebsiteSettings) => saved.scanIntervalDays ?? defaultScanIntervalDays,
  });
  return (
    <Card role="region" aria-labelledby="scan-schedule-title">
      <CardHeader>
        <CardTitle id="scan-schedule-title">Scheduled scans</CardTitle>
        <CardDescription>
          0 turns scheduled scans off. Scheduled scans run only once the snippet has sent something from the website, and you are emailed when
          one finds something new.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <p className="text-sm text-muted-foreground">Loading the schedule...</p>
        ) : settings.isError ? (
          <p className="text-sm text-destructive">The schedule could not be loaded: {getServerMessage(settings.error)}</p>
        ) : (
          // Keyed by website: another website starts from its own saved value.
          <ScanScheduleForm key={websiteId} websiteId={websiteId} saved={settings.data} />
        )}
      </CardContent>
    </Card>
  );
}

function ScanScheduleForm({ websiteId, saved }: { websiteId: string; saved: number }) {
  // What the owner typed; null shows the saved value (again, once a save went through).
  const [draft, setDraft] = useState<string | null>(null);
  const input = draft ?? String(saved);
  // The api's reason for a refused save (400), shown until the value changes.
  const [saveProblem, setSaveProblem] = useState<string | null>(null);
  const update = useUpdateScanInterval(websiteId);
  const { toast } = useToast();
  const id = useId();
  const checked = checkScanIntervalDays(input);
  const changed = checked.ok && checked.value !== saved;
  const problem = checked.ok ? saveProblem : checked.problem;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!checked.ok || !changed) return;
    setSaveProblem(null);
    update.mutate(checked.value, {
      onSuccess: () => {
        setDraft(null);
        toast({
          title: 'Schedule saved',
          description: checked.value === 0 ? 'Scheduled scans are off.' : `The website is scanned every ${checked.value === 1 ? 'day' : `${checked.value} days`}.`,
        });
      },
      onError: (error) => {
        if (getErrorStatus(error) === 400) setSaveProblem(getServerMessage(error));
        toast({ title: 'Error', description: `Failed to save the schedule: ${getServerMessage(error)}`, variant: 'destructive' });
      },
    });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Label htmlFor={`${id}-days`}>Scan automatically every</Label>
        <Input
          id={`${id}-days`}
          type="number"
          inputMode="numeric"
          min={scanIntervalDaysMin}
          max={scanIntervalDaysMax}
          step={1}
          className="w-24"
          value={input}
          aria-invalid={problem !== null}
          aria-describedby={`${id}-hint`}
          onChange={(event) => {
            setDraft(event.target.value);
            setSaveProblem(null);
          }}
        />
        <span aria-hidden>days</span>
        <Button type="submit" disabled={update.isPending || !changed}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
      <p id={`${id}-hint`} role={problem ? 'alert' : undefined} className={problem ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
        {problem ?? `A whole number from ${scanIntervalDaysMin} to ${scanIntervalDaysMax}; default ${defaultScanIntervalDays}. 0: no scheduled scans.`}
      </p>
    </form>
  );
}
