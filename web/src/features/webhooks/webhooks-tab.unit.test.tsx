// The Webhooks tab: endpoints listed with their events; Add shows the signing secret once with a
// copy button; Remove asks first; the delivery log shows each delivery and sends one again.
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import WebhooksTab from './webhooks-tab';

const endpoint = {
  id: 'e1',
  websiteId: 'w1',
  url: 'https://crm.example/hooks',
  description: 'CRM import',
  eventTypes: ['lead.identified', 'consent.withdrawn'],
  addedAt: '2024-05-01T12:00:00Z',
};

const deliveries = [
  {
    id: 'd1',
    endpointId: 'e1',
    messageId: 'msg_1',
    eventType: 'lead.identified',
    status: 'failed',
    attempts: 8,
    lastStatusCode: 500,
    lastError: 'Internal Server Error',
    createdAt: '2024-05-01T11:00:00Z',
    deliveredAt: null,
    nextAttemptAt: null,
    attemptLog: [
      { attempt: 2, attemptedAt: '2024-05-01T11:00:05Z', statusCode: 500, error: 'Internal Server Error', durationMs: 120 },
      { attempt: 1, attemptedAt: '2024-05-01T11:00:00Z', statusCode: null, error: 'timeout after 15 s', durationMs: 15000 },
    ],
  },
  {
    id: 'd2',
    endpointId: 'e1',
    messageId: 'msg_2',
    eventType: 'consent.withdrawn',
    status: 'delivered',
    attempts: 1,
    lastStatusCode: 204,
    lastError: null,
    createdAt: '2024-05-01T11:05:00Z',
    deliveredAt: '2024-05-01T11:05:01Z',
    nextAttemptAt: null,
  },
];

describe('webhooks tab', () => {
  it('lists the endpoints with their events', async () => {
    stubFetch({ 'GET /api/websites/w1/webhooks': () => jsonResponse([endpoint]) });
    renderInApp(<WebhooksTab websiteId="w1" />);
    const item = await screen.findByRole('listitem', { name: 'https://crm.example/hooks' });
    expect(within(item).getByText('CRM import')).toBeInTheDocument();
    expect(within(item).getByText('Lead identified')).toBeInTheDocument();
    expect(within(item).getByText('Consent withdrawn')).toBeInTheDocument();
    expect(within(item).queryByText('Lead enriched')).not.toBeInTheDocument();
  });

  it('refuses an address that is not http or https, and sends nothing', async () => {
    const { requests } = stubFetch({ 'GET /api/websites/w1/webhooks': () => jsonResponse([]) });
    renderInApp(<WebhooksTab websiteId="w1" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });
    await user.click(within(dialog).getByLabelText('Endpoint URL'));
    await user.paste('crm.example');
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(within(dialog).getByText('Enter a full http or https address, such as https://example.com/webhooks/consentry.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Endpoint URL')).toHaveAttribute('aria-invalid', 'true');

    // Every event is chosen to start with; none at all is refused.
    for (const name of [/Lead identified/, /Lead enriched/, /Consent withdrawn/]) await user.click(within(dialog).getByRole('checkbox', { name }));
    expect(within(dialog).getByText('Choose at least one event to send.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Add endpoint' })).toBeDisabled();
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('adds an endpoint and shows its signing secret once, with a copy button', async () => {
    const listed: unknown[] = [];
    const { requests } = stubFetch({
      'GET /api/websites/w1/webhooks': () => jsonResponse(listed),
      'POST /api/websites/w1/webhooks': () => {
        listed.push(endpoint);
        return jsonResponse({ endpoint, secret: 'whsec_c2VjcmV0' }, 201);
      },
    });
    renderInApp(<WebhooksTab websiteId="w1" />);
    expect(await screen.findByText('No webhook endpoints yet')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });
    await user.click(within(dialog).getByLabelText('Endpoint URL'));
    await user.paste(' https://crm.example/hooks ');
    await user.click(within(dialog).getByLabelText('Description'));
    await user.paste('CRM import');
    await user.click(within(dialog).getByRole('checkbox', { name: /Lead enriched/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));

    const added = await screen.findByRole('dialog', { name: 'Endpoint added' });
    expect(requests.filter((request) => request.method === 'POST').map((request) => request.body)).toEqual([
      { url: 'https://crm.example/hooks', description: 'CRM import', eventTypes: ['lead.identified', 'consent.withdrawn'] },
    ]);
    expect(within(added).getByText('whsec_c2VjcmV0')).toBeInTheDocument();
    expect(within(added).getByText(/it is shown only this once/)).toBeInTheDocument();
    await user.click(within(added).getByRole('button', { name: 'Copy signing secret' }));
    // user-event's own clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe('whsec_c2VjcmV0');
    expect(await within(added).findByRole('button', { name: 'Copied!' })).toBeInTheDocument();

    await user.click(within(added).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('listitem', { name: 'https://crm.example/hooks' })).toBeInTheDocument();
    // Gone with the dialog: the secret is never shown again.
    expect(screen.queryByText('whsec_c2VjcmV0')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByRole('dialog', { name: 'Add webhook endpoint' })).toBeInTheDocument();
    expect(screen.queryByText('whsec_c2VjcmV0')).not.toBeInTheDocument();
  });

  it('removes an endpoint only after confirming', async () => {
    const { requests } = stubFetch({
      'GET /api/websites/w1/webhooks': () => jsonResponse(requests.some((request) => request.method === 'DELETE') ? [] : [endpoint]),
      'DELETE /api/websites/w1/webhooks/e1': () => new Response(null, { status: 204 }),
    });
    renderInApp(<WebhooksTab websiteId="w1" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove https://crm.example/hooks' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove this endpoint?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(requests.filter((request) => request.method === 'DELETE')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Remove https://crm.example/hooks' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Endpoint removed')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'DELETE').map((request) => request.url)).toEqual(['/api/websites/w1/webhooks/e1']);
    expect(await screen.findByText('No webhook endpoints yet')).toBeInTheDocument();
  });

  it('shows the delivery log and sends a delivery again', async () => {
    let resent = false;
    const { requests } = stubFetch({
      'GET /api/websites/w1/webhooks/e1/deliveries': () =>
        jsonResponse({
          deliveries: resent ? [{ ...deliveries[0], status: 'queued', nextAttemptAt: '2999-01-01T00:00:00Z' }, deliveries[1]] : deliveries,
          nextCursor: null,
        }),
      'GET /api/websites/w1/webhooks': () => jsonResponse([endpoint]),
      'POST /api/webhook-deliveries/d1/resend': () => {
        resent = true;
        return jsonResponse({}, 202);
      },
    });
    renderInApp(<WebhooksTab websiteId="w1" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delivery log' }));
    const log = await screen.findByRole('table', { name: 'Deliveries' });
    const rows = within(log).getAllByRole('row');
    const failed = within(rows[1]!);
    expect(failed.getByText('Lead identified')).toBeInTheDocument();
    expect(failed.getByText('Failed')).toBeInTheDocument();
    expect(failed.getByText('8')).toBeInTheDocument();
    expect(failed.getByText('HTTP 500 · Internal Server Error')).toBeInTheDocument();
    expect(failed.getByText('All 2 tries')).toBeInTheDocument();
    expect(failed.getByText(/^#1 · .* · timeout after 15 s · 15,000 ms$/)).toBeInTheDocument();
    const delivered = within(rows[2]!);
    expect(delivered.getByText('Delivered')).toBeInTheDocument();
    expect(delivered.getByText('HTTP 204')).toBeInTheDocument();

    await user.click(failed.getByRole('button', { name: 'Send again' }));
    expect(await screen.findByText('Sending again')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST').map((request) => request.url)).toEqual(['/api/webhook-deliveries/d1/resend']);
    expect(requests.find((request) => request.url.includes('/deliveries'))?.url).toBe('/api/websites/w1/webhooks/e1/deliveries?limit=50');
    // The log is read again: the delivery now waits to be sent, and cannot be sent twice.
    expect(await within(log).findByText('Queued')).toBeInTheDocument();
    await act(async () => {
      await Promise.resolve();
    });
    expect(within(within(log).getAllByRole('row')[1]!).getByRole('button', { name: 'Send again' })).toBeDisabled();
  });
});
