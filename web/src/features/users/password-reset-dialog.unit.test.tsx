// An admin's password reset link for an owner: created only when asked, shown once with its expiry
// to hand over, forgotten when the dialog closes; a refusal says why.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { PasswordResetLinkDialog } from './password-reset-dialog';
import type { ManagedUser } from './queries';

const owner: ManagedUser = {
  id: '0b7e6c5d-4f3a-4b2c-9d1e-8f7a6b5c4d3e',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profileImageUrl: null,
  status: 'registered',
  subscriptionTier: 'free',
  subscriptionStatus: 'active',
  maxWebsites: 1,
  maxConsentsPerMonth: 10_000,
  isActive: true,
  websiteCount: 0,
  consentCount: 0,
  currentMonthConsents: 0,
  consentQuotaExceeded: false,
  lastActivity: '2024-05-01T10:00:00.000Z',
};
const resetUrl = 'http://localhost:3000/reset-password#abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';

describe('the password reset link dialog', () => {
  it('creates the link only when asked, shows it once to hand over, and forgets it when closed', async () => {
    const { requests } = stubFetch({
      [`POST /api/admin/users/${owner.id}/password-reset`]: () => jsonResponse({ resetUrl, expiresAt: '2030-01-02T10:00:00.000Z' }, 201),
    });
    renderInApp(<PasswordResetLinkDialog user={owner} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Password reset link for Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog');
    expect(requests).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText(resetUrl)).toBeInTheDocument();
    expect(within(dialog).getByText(/Give this link to ada@example.com yourself. It works once, until .*2030/)).toBeInTheDocument();
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([`POST /api/admin/users/${owner.id}/password-reset`]);

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await user.click(screen.getByRole('button', { name: 'Password reset link for Ada Lovelace' }));
    expect(within(await screen.findByRole('dialog')).queryByText(resetUrl)).toBeNull();
  });

  it('says why the link could not be created', async () => {
    stubFetch({
      [`POST /api/admin/users/${owner.id}/password-reset`]: () =>
        jsonResponse({ error: { code: 'NOT_REGISTERED', message: 'This user has not completed sign-up yet: send them a new invitation instead' } }, 409),
    });
    renderInApp(<PasswordResetLinkDialog user={owner} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Password reset link for Ada Lovelace' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Create link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create the link: This user has not completed sign-up yet');
  });
});
