// The Webhooks tab of a website (docs/identification.md): the endpoints its leads are sent to (lead
// identified, lead enriched, consent withdrawn), signed as Standard Webhooks describes. Add one and
// its signing secret is shown once, with a copy button; remove one after confirming; open an
// endpoint's delivery log to see every delivery's status, tries and last answer, and send one again.
// Loaded lazily: only owners who open the tab download it.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronUp, Plus, RefreshCw, Send, Trash2, Webhook } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { DayAndTime } from '../../components/day-and-time';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { SnippetBlock } from '../../components/snippet-block';
import { useToast } from '../../components/toaster';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '../../components/ui/alert-dialog';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { getServerMessage } from '../../lib/api';
import { formatDateTime, formatNumber } from '../../lib/format';
import {
  canResend,
  checkWebhookDescription,
  checkWebhookEventTypes,
  checkWebhookUrl,
  deliveryStatusLabels,
  deliveryStatusVariants,
  describeLastAnswer,
  formatWebhookEventType,
  maxWebhookDescriptionLength,
  maxWebhookUrlLength,
  webhookEventTypeDescriptions,
  webhookEventTypeLabels,
} from './labels';
import {
  useAddWebhookEndpoint,
  useRemoveWebhookEndpoint,
  useResendWebhookDelivery,
  webhookDeliveriesQueryOptions,
  webhookEventTypes,
  webhooksQueryOptions,
  type AddedWebhookEndpoint,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
  type WebhookEndpoint,
  type WebhookEventType,
} from './queries';

export default function WebhooksTab({ websiteId }: { websiteId: string }) {
  const endpoints = useQuery(webhooksQueryOptions(websiteId));
  const [adding, setAdding] = useState(false);

  return (
    <div className="space-y-6">
      <Card role="region" aria-labelledby="webhooks-title">
        <CardHeader className="gap-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="space-y-1.5">
            <CardTitle id="webhooks-title">Webhooks</CardTitle>
            <CardDescription>
              Send leads on to your email, ads or CRM tools. Each event is POSTed to your address as JSON, signed as the Standard Webhooks
              specification describes (webhook-id, webhook-timestamp and webhook-signature headers), and tried again with back-off until your
              endpoint answers with a 2xx status.
            </CardDescription>
          </div>
          <Button className="self-start" onClick={() => setAdding(true)}>
            <Plus aria-hidden />
            Add endpoint
          </Button>
        </CardHeader>
        <CardContent>
          {endpoints.isPending ? (
            <LoadingState />
          ) : endpoints.isError ? (
            <ErrorState title="Webhook endpoints could not be loaded." error={endpoints.error} />
          ) : endpoints.data.length === 0 ? (
            <EmptyState title="No webhook endpoints yet" description="Add an endpoint to be told when a lead is identified or enriched, or withdraws consent." />
          ) : (
            <ul className="space-y-4">
              {endpoints.data.map((endpoint) => (
                <EndpointItem key={endpoint.id} websiteId={websiteId} endpoint={endpoint} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <AddEndpointDialog websiteId={websiteId} open={adding} onOpenChange={setAdding} />
    </div>
  );
}

interface EndpointDraft {
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
}

const emptyDraft: EndpointDraft = { url: '', description: '', eventTypes: [...webhookEventTypes] };

function AddEndpointDialog({ websiteId, open, onOpenChange }: { websiteId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [draft, setDraft] = useState<EndpointDraft>(emptyDraft);
  const [added, setAdded] = useState<AddedWebhookEndpoint | null>(null);
  // Problems show once the owner tried to add, not while they start typing.
  const [tried, setTried] = useState(false);
  const add = useAddWebhookEndpoint(websiteId);
  const { toast } = useToast();
  const id = useId();

  const url = checkWebhookUrl(draft.url);
  const description = checkWebhookDescription(draft.description);
  const eventTypes = checkWebhookEventTypes(draft.eventTypes);

  function close(next: boolean) {
    onOpenChange(next);
    if (!next) {
      // The secret leaves the screen with the dialog: it is never shown again.
      setDraft(emptyDraft);
      setAdded(null);
      setTried(false);
      add.reset();
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTried(true);
    if (!url.ok || !description.ok || !eventTypes.ok) return;
    add.mutate(
      { url: url.value, description: description.value, eventTypes: eventTypes.value },
      {
        onSuccess: (answer) => setAdded(answer),
        onError: (error) => toast({ title: 'Error', description: `Failed to add the endpoint: ${getServerMessage(error)}`, variant: 'destructive' }),
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        {added ? (
          <>
            <DialogHeader>
              <DialogTitle>Endpoint added</DialogTitle>
              <DialogDescription>
                Copy the signing secret now: it is shown only this once. Your endpoint uses it to check the webhook-signature header of each
                delivery.
              </DialogDescription>
            </DialogHeader>
            <p className="text-sm wrap-anywhere">
              <span className="text-muted-foreground">Endpoint: </span>
              <span className="font-mono">{added.endpoint.url}</span>
            </p>
            {added.secret ? (
              <SnippetBlock label="Signing secret" snippet={added.secret} copiedDescription="The signing secret was copied to the clipboard." />
            ) : (
              <p role="alert" className="text-sm text-destructive">
                The api sent no signing secret. Remove this endpoint and add it again.
              </p>
            )}
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>Add webhook endpoint</DialogTitle>
              <DialogDescription>Where to send this website&apos;s lead events.</DialogDescription>
            </DialogHeader>
            <div className="space-y-2">
              <Label htmlFor={`${id}-url`}>Endpoint URL</Label>
              <Input
                id={`${id}-url`}
                type="url"
                placeholder="https://example.com/webhooks/consentry"
                maxLength={maxWebhookUrlLength}
                value={draft.url}
                aria-invalid={tried && !url.ok}
                aria-describedby={tried && !url.ok ? `${id}-url-problem` : undefined}
                onChange={(event) => setDraft({ ...draft, url: event.target.value })}
              />
              {tried && !url.ok ? (
                <p id={`${id}-url-problem`} className="text-xs text-destructive">
                  {url.problem}
                </p>
              ) : null}
            </div>
            <div className="space-y-2">
              <Label htmlFor={`${id}-description`}>Description</Label>
              <Input
                id={`${id}-description`}
                placeholder="CRM import"
                maxLength={maxWebhookDescriptionLength}
                value={draft.description}
                aria-invalid={!description.ok}
                onChange={(event) => setDraft({ ...draft, description: event.target.value })}
              />
              {!description.ok ? <p className="text-xs text-destructive">{description.problem}</p> : null}
            </div>
            <fieldset className="space-y-3">
              <legend className="text-sm font-medium">Events</legend>
              {webhookEventTypes.map((type) => (
                <div key={type} className="flex items-start gap-3">
                  <Checkbox
                    id={`${id}-${type}`}
                    className="mt-0.5"
                    checked={draft.eventTypes.includes(type)}
                    aria-describedby={`${id}-${type}-hint`}
                    onChange={(event) =>
                      setDraft({
                        ...draft,
                        eventTypes: webhookEventTypes.filter((item) => (item === type ? event.target.checked : draft.eventTypes.includes(item))),
                      })
                    }
                  />
                  <div className="space-y-1">
                    <Label htmlFor={`${id}-${type}`}>
                      {webhookEventTypeLabels[type]} <span className="font-mono text-xs font-normal text-muted-foreground">{type}</span>
                    </Label>
                    <p id={`${id}-${type}-hint`} className="text-xs text-muted-foreground">
                      {webhookEventTypeDescriptions[type]}
                    </p>
                  </div>
                </div>
              ))}
              {!eventTypes.ok ? <p className="text-xs text-destructive">{eventTypes.problem}</p> : null}
            </fieldset>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={add.isPending || !eventTypes.ok || !description.ok}>
                {add.isPending ? 'Adding...' : 'Add endpoint'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

function EndpointItem({ websiteId, endpoint }: { websiteId: string; endpoint: WebhookEndpoint }) {
  const [logOpen, setLogOpen] = useState(false);
  const remove = useRemoveWebhookEndpoint(websiteId);
  const { toast } = useToast();
  const logId = useId();

  function confirmRemove() {
    remove.mutate(endpoint.id, {
      onSuccess: () => toast({ title: 'Endpoint removed', description: `Nothing more is sent to ${endpoint.url}.` }),
      onError: (error) => toast({ title: 'Error', description: `Failed to remove the endpoint: ${getServerMessage(error)}`, variant: 'destructive' }),
    });
  }

  return (
    <li className="rounded-lg border" aria-label={endpoint.url}>
      <div className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-2">
          <p className="flex items-start gap-2 font-mono text-sm wrap-anywhere">
            <Webhook className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
            {endpoint.url}
          </p>
          {endpoint.description ? <p className="text-sm text-muted-foreground">{endpoint.description}</p> : null}
          <div className="flex flex-wrap gap-1" aria-label="Events sent">
            {endpoint.eventTypes.map((type) => (
              <Badge key={type} variant="outline">
                {formatWebhookEventType(type)}
              </Badge>
            ))}
          </div>
          <p className="text-xs text-muted-foreground">Added {formatDateTime(endpoint.addedAt)}</p>
        </div>
        <div className="flex shrink-0 gap-2">
          <Button variant="outline" size="sm" aria-expanded={logOpen} aria-controls={logId} onClick={() => setLogOpen(!logOpen)}>
            {logOpen ? <ChevronUp aria-hidden /> : <ChevronDown aria-hidden />}
            Delivery log
          </Button>
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button variant="outline" size="sm" disabled={remove.isPending} aria-label={`Remove ${endpoint.url}`}>
                <Trash2 aria-hidden />
                Remove
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Remove this endpoint?</AlertDialogTitle>
                <AlertDialogDescription>
                  Nothing more is sent to {endpoint.url}, including deliveries still waiting to be tried again. This action cannot be undone.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <AlertDialogAction onClick={confirmRemove}>Remove</AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        </div>
      </div>
      {logOpen ? (
        <div id={logId} className="border-t p-4">
          <DeliveryLog websiteId={websiteId} endpoint={endpoint} />
        </div>
      ) : null}
    </li>
  );
}

function DeliveryLog({ websiteId, endpoint }: { websiteId: string; endpoint: WebhookEndpoint }) {
  const deliveries = useInfiniteQuery(webhookDeliveriesQueryOptions(websiteId, endpoint.id));
  const rows = deliveries.data?.pages.flatMap((page) => page.deliveries) ?? [];
  const resend = useResendWebhookDelivery(websiteId, endpoint.id);
  const { toast } = useToast();

  function sendAgain(delivery: WebhookDelivery) {
    resend.mutate(delivery.id, {
      onSuccess: () => toast({ title: 'Sending again', description: `The ${formatWebhookEventType(delivery.eventType)} delivery is queued.` }),
      onError: (error) => toast({ title: 'Error', description: `Failed to send again: ${getServerMessage(error)}`, variant: 'destructive' }),
    });
  }

  return (
    <section aria-label={`Delivery log of ${endpoint.url}`} className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h4 className="text-sm font-semibold">Delivery log</h4>
        <Button variant="ghost" size="sm" disabled={deliveries.isFetching} onClick={() => void deliveries.refetch()}>
          <RefreshCw aria-hidden />
          Refresh
        </Button>
      </div>
      {deliveries.isPending ? (
        <LoadingState />
      ) : deliveries.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The delivery log could not be loaded: {getServerMessage(deliveries.error)}
        </p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nothing sent yet.</p>
      ) : (
        <Table aria-label="Deliveries">
          <TableHeader>
            <TableRow>
              <TableHead>Event</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Tries</TableHead>
              <TableHead>Last answer</TableHead>
              <TableHead>Created</TableHead>
              <TableHead>Delivered</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((delivery) => (
              <TableRow key={delivery.id}>
                <TableCell className="whitespace-nowrap">{formatWebhookEventType(delivery.eventType)}</TableCell>
                <TableCell>
                  <Badge variant={deliveryStatusVariants[delivery.status]}>{deliveryStatusLabels[delivery.status] ?? delivery.status}</Badge>
                </TableCell>
                <TableCell className="text-right tabular-nums">{delivery.attempts}</TableCell>
                <TableCell className="max-w-56 min-w-32 text-xs break-words">
                  {describeLastAnswer(delivery)}
                  <AttemptLog attempts={delivery.attemptLog} />
                </TableCell>
                <TableCell>
                  <DayAndTime value={delivery.createdAt} />
                </TableCell>
                <TableCell>
                  {delivery.deliveredAt ? (
                    <DayAndTime value={delivery.deliveredAt} />
                  ) : delivery.nextAttemptAt && delivery.status === 'queued' ? (
                    <DayAndTime value={delivery.nextAttemptAt} prefix="Next try" />
                  ) : (
                    '—'
                  )}
                </TableCell>
                <TableCell>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={!canResend(delivery) || (resend.isPending && resend.variables === delivery.id)}
                    onClick={() => sendAgain(delivery)}
                  >
                    <Send aria-hidden />
                    Send again
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {deliveries.hasNextPage ? (
        <Button variant="outline" size="sm" disabled={deliveries.isFetchingNextPage} onClick={() => void deliveries.fetchNextPage()}>
          {deliveries.isFetchingNextPage ? 'Loading...' : 'Older deliveries'}
        </Button>
      ) : null}
    </section>
  );
}

/** Every try of a delivery, newest first, folded away until asked for. */
function AttemptLog({ attempts }: { attempts: WebhookDeliveryAttempt[] | undefined }) {
  if (!attempts || attempts.length < 2) return null;
  return (
    <details className="mt-1">
      <summary className="cursor-pointer text-muted-foreground">All {attempts.length} tries</summary>
      <ol className="mt-1 space-y-0.5">
        {attempts.map((attempt) => (
          <li key={attempt.attempt}>
            #{attempt.attempt} · {formatDateTime(attempt.attemptedAt)} · {describeLastAnswer({ lastStatusCode: attempt.statusCode, lastError: attempt.error })} ·{' '}
            {formatNumber(attempt.durationMs)} ms
          </li>
        ))}
      </ol>
    </details>
  );
}
