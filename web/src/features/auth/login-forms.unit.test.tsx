// Creating an account: signed in at once (no email set up on the server), or told to check the
// inbox when the server confirms addresses by email (the same answer for every address).
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithToaster, stubFetch } from '../../test/render';
import { OwnerLoginForm } from './login-forms';

async function fillRegistration() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('First name'), 'Nina');
  await user.type(screen.getByLabelText('Last name'), 'Neu');
  await user.type(screen.getByLabelText('Email'), 'nina@example.com');
  await user.type(screen.getByLabelText('Password'), 'a long password');
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('creating an account', () => {
  it('goes on signed in when the server creates the account at once', async () => {
    stubFetch({ 'POST /api/auth/register': () => jsonResponse({ user: { id: 'u1', email: 'nina@example.com' } }, 201) });
    const signedIn = vi.fn();
    renderWithToaster(<OwnerLoginForm mode="register" onSignedIn={signedIn} />);
    await fillRegistration();
    await expect.poll(() => signedIn.mock.calls.length).toBe(1);
  });

  it('asks to check the inbox, and stays, when the server sends a confirmation link', async () => {
    const message = 'Check your email: we sent a link to finish creating your account.';
    stubFetch({ 'POST /api/auth/register': () => jsonResponse({ status: 'confirmation_sent', message }, 202) });
    const signedIn = vi.fn();
    renderWithToaster(<OwnerLoginForm mode="register" onSignedIn={signedIn} />);
    await fillRegistration();
    expect(await screen.findByRole('status')).toHaveTextContent(message);
    expect(signedIn).not.toHaveBeenCalled();
  });
});
