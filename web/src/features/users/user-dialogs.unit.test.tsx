// Invite and delete flows of User Management (spec sections 4, 5 and 8): invite defaults, choosing a
// tier copies its plan's limits, email must be email-shaped, and delete needs confirmation.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import type { SubscriptionPlan } from '../subscription/queries';
import { DeleteUserButton, InviteUserDialog } from './user-dialogs';

const plans: SubscriptionPlan[] = [
  { id: 'p1', name: 'free', displayName: 'Free', description: '', price: 0, maxWebsites: 1, maxConsentsPerMonth: 10000, features: [], perResolutionCents: null, dataTypes: ['b2c'] },
  { id: 'p2', name: 'pro', displayName: 'Pro', description: '', price: 4900, maxWebsites: 10, maxConsentsPerMonth: 100000, features: [], perResolutionCents: null, dataTypes: ['b2c'] },
];

describe('invite user dialog', () => {
  it('starts on the free plan’s limits, as a self-signed-up owner does, and copies a chosen plan’s limits', async () => {
    const inviteUrl = 'http://localhost:3000/invitation#abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
    const { requests } = stubFetch({
      'POST /api/admin/users/invite': () => jsonResponse({ email: 'new@example.com', inviteUrl, inviteEmailSent: false }, 201),
    });
    renderInApp(<InviteUserDialog plans={plans} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Invite User' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Max websites')).toHaveValue(1);
    expect(within(dialog).getByLabelText('Max consents per month')).toHaveValue(10000);
    expect(within(dialog).getByRole('combobox', { name: 'Subscription tier' })).toHaveTextContent('Free');

    await user.click(within(dialog).getByRole('combobox', { name: 'Subscription tier' }));
    await user.click(await screen.findByRole('option', { name: 'Pro' }));
    expect(within(dialog).getByLabelText('Max websites')).toHaveValue(10);
    expect(within(dialog).getByLabelText('Max consents per month')).toHaveValue(100000);

    await user.type(within(dialog).getByLabelText('Email'), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(within(dialog).getByText('Enter a valid email address.')).toBeInTheDocument();
    expect(requests).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), 'new@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    // The single-use link is shown once, with what to do with it; nothing was sent, so no toast says so.
    expect(await screen.findByText(inviteUrl)).toBeInTheDocument();
    expect(screen.getByText(/send this link to new@example.com yourself/)).toBeInTheDocument();
    expect(screen.queryByText('Invitation sent to new@example.com')).not.toBeInTheDocument();
    expect(requests[0]?.body).toEqual({
      email: 'new@example.com',
      subscriptionTier: 'pro',
      maxWebsites: 10,
      maxConsentsPerMonth: 100000,
    });
  });

  it('says the invitation was sent when it was emailed', async () => {
    stubFetch({
      'POST /api/admin/users/invite': () => jsonResponse({ email: 'new@example.com', inviteUrl: 'http://localhost:3000/invitation#x', inviteEmailSent: true }, 201),
    });
    renderInApp(<InviteUserDialog plans={plans} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Invite User' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Email'), 'new@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Invitation sent to new@example.com')).toBeInTheDocument();
    expect(screen.getByText(/We emailed this link to new@example.com/)).toBeInTheDocument();
  });

  it('starts on the free plan’s 10,000 consents a month while the plans are still loading', async () => {
    renderInApp(<InviteUserDialog plans={[]} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Invite User' }));
    expect(within(await screen.findByRole('dialog')).getByLabelText('Max consents per month')).toHaveValue(10000);
  });

  it("reports a failed invitation with the server's message", async () => {
    stubFetch({
      'POST /api/admin/users/invite': () => jsonResponse({ error: { code: 'CONFLICT', message: 'Already a user' } }, 409),
    });
    renderInApp(<InviteUserDialog plans={plans} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Invite User' }));
    await user.type(await screen.findByLabelText('Email'), 'old@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Failed to send invitation: Already a user')).toBeInTheDocument();
  });
});

describe('delete user', () => {
  it('asks for confirmation before deleting', async () => {
    const { requests } = stubFetch({ 'DELETE /api/admin/users/u1': () => new Response(null, { status: 204 }) });
    renderInApp(
      <DeleteUserButton
        user={{
          id: 'u1',
          email: 'a@example.com',
          firstName: null,
          lastName: null,
          profileImageUrl: null,
          status: 'registered',
          subscriptionTier: 'free',
          subscriptionStatus: 'active',
          maxWebsites: 1,
          maxConsentsPerMonth: 15,
          isActive: true,
          websiteCount: 0,
          consentCount: 0,
          currentMonthConsents: 0,
          consentQuotaExceeded: false,
          lastActivity: '2024-05-01T12:00:00Z',
        }}
      />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete a@example.com' }));
    expect(
      await screen.findByText('Are you sure you want to delete this user? This action cannot be undone.'),
    ).toBeInTheDocument();
    expect(requests).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User deleted successfully')).toBeInTheDocument();
    expect(requests[0]).toMatchObject({ method: 'DELETE', url: '/api/admin/users/u1' });
  });
});
