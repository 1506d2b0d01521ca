// Opening the link sent to a new email: the page confirms it with the token from the fragment and
// shows the new address, or why the link does not work.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { ConfirmEmailChangePage } from './confirm-email-change-page';

const token = 'B'.repeat(43);

describe('confirming a new email', () => {
  it('sends the token and shows the new address', async () => {
    const { requests } = stubFetch({
      'POST /api/auth/email/confirm': () => jsonResponse({ user: { id: 'u1', email: 'ada.king@example.com' } }),
      'GET /api/auth/user': () => jsonResponse(null, 401),
    });
    renderInApp(<ConfirmEmailChangePage token={token} />);
    expect(await screen.findByText('Your email is now ada.king@example.com. Sign in with it from now on.')).toHaveAttribute('role', 'status');
    expect(requests.find((request) => request.url === '/api/auth/email/confirm')?.body).toEqual({ token });
  });

  it('says why a used link does not work', async () => {
    stubFetch({
      'POST /api/auth/email/confirm': () =>
        jsonResponse({ error: { code: 'EMAIL_CHANGE_LINK_INVALID', message: 'This confirmation link is not valid any more (used, expired or replaced)' } }, 400),
    });
    renderInApp(<ConfirmEmailChangePage token={token} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('not valid any more');
  });

  it('needs the whole link', async () => {
    const { requests } = stubFetch({});
    renderInApp(<ConfirmEmailChangePage token="" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This page needs the whole link');
    expect(requests).toHaveLength(0);
  });
});
