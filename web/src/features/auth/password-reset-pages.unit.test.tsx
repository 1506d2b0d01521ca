// A forgotten password: the request page shows the api's answer (the same for every address) or its
// refusal (email not set up, too many requests); the reset page names the account, refuses two
// different passwords, sends the new one with the link's token and goes on signed in, or says why
// the link no longer works.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { ForgotPasswordPage } from './forgot-password-page';
import { currentUserQueryOptions } from './queries';
import { ResetPasswordPage } from './reset-password-page';

const token = 'A'.repeat(43);
const errorResponse = (status: number, code: string, message: string) => jsonResponse({ error: { code, message } }, status);

describe('asking for a reset link', () => {
  it('sends the email and shows the answer', async () => {
    const message = 'If an account uses this email, we sent it a link to choose a new password. The link works for 1 hour.';
    const { requests } = stubFetch({ 'POST /api/auth/forgot-password': () => jsonResponse({ status: 'reset_sent', message }, 202) });
    renderInApp(<ForgotPasswordPage />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), ' ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(message);
    expect(requests.at(-1)?.body).toEqual({ email: 'ada@example.com' });
  });

  it('says so when email is not set up on the server', async () => {
    stubFetch({
      'POST /api/auth/forgot-password': () =>
        errorResponse(409, 'EMAIL_NOT_SET_UP', 'Email is not set up on this server, so no reset link can be sent: ask your administrator for a password reset link.'),
    });
    renderInApp(<ForgotPasswordPage />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('ask your administrator for a password reset link');
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('choosing a new password through the link', () => {
  it('names the account, sends the new password with the token and goes on signed in', async () => {
    const signedIn = { id: 'u1', email: 'ada@example.com' };
    const { requests } = stubFetch({
      'POST /api/auth/reset-password/check': () => jsonResponse({ email: 'ada@example.com', expiresAt: '2030-01-01T00:00:00.000Z' }),
      'POST /api/auth/reset-password': () => jsonResponse({ user: signedIn }),
    });
    const { queryClient } = renderInApp(<ResetPasswordPage token={token} />);
    expect(await screen.findByText(/For ada@example.com/)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password'), 'purple tractor orbit');
    await user.type(screen.getByLabelText('Repeat the new password'), 'purple tractor orbit');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByTestId('navigated-away')).toBeInTheDocument();
    expect(requests.find((request) => request.url === '/api/auth/reset-password')?.body).toEqual({ token, newPassword: 'purple tractor orbit' });
    expect(queryClient.getQueryData(currentUserQueryOptions().queryKey)).toEqual(signedIn);
  });

  it('does not send two different passwords', async () => {
    const { requests } = stubFetch({
      'POST /api/auth/reset-password/check': () => jsonResponse({ email: 'ada@example.com', expiresAt: '2030-01-01T00:00:00.000Z' }),
    });
    renderInApp(<ResetPasswordPage token={token} />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), 'purple tractor orbit');
    await user.type(screen.getByLabelText('Repeat the new password'), 'purple tractor orbi');
    expect(screen.getByRole('alert')).toHaveTextContent('The two passwords differ');
    expect(screen.getByRole('button', { name: 'Set new password' })).toBeDisabled();
    expect(requests.filter((request) => request.url === '/api/auth/reset-password')).toHaveLength(0);
  });

  it('shows a weak password’s advice and stays', async () => {
    stubFetch({
      'POST /api/auth/reset-password/check': () => jsonResponse({ email: 'ada@example.com', expiresAt: '2030-01-01T00:00:00.000Z' }),
      'POST /api/auth/reset-password': () => errorResponse(400, 'WEAK_PASSWORD', 'Choose a stronger password: add another word or two.'),
    });
    renderInApp(<ResetPasswordPage token={token} />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), 'password1234');
    await user.type(screen.getByLabelText('Repeat the new password'), 'password1234');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a stronger password');
    expect(screen.queryByTestId('navigated-away')).toBeNull();
  });

  it('says why a used or expired link does not work, and offers a new one', async () => {
    stubFetch({
      'POST /api/auth/reset-password/check': () =>
        errorResponse(400, 'RESET_LINK_INVALID', 'This password reset link is not valid any more (used, expired or replaced); ask for a new one'),
    });
    renderInApp(<ResetPasswordPage token={token} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('not valid any more');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByLabelText('New password')).toBeNull();
  });
});
