// The Account page's forms: the name form saves through PATCH /api/auth/user and updates who is
// signed in; the password form sends the current and new password and says what happened, or the
// api's reason and what to do; the email form asks for a confirmation link to the new address; the
// delete form needs the password and the confirming words, then signs out and leaves.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { currentUserQueryOptions, type SessionUser } from '../auth/queries';
import { AccountPage } from './account-page';

const owner: SessionUser = {
  id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profileImageUrl: null,
  subscriptionTier: 'free',
  subscriptionStatus: 'active',
  maxWebsites: 1,
  maxConsentsPerMonth: 10_000,
  isActive: true,
};
const errorResponse = (status: number, code: string, message: string) => jsonResponse({ error: { code, message } }, status);

/** The sessions the page reads (the owner, no admin) plus the routes a test adds. */
function stubAccountFetch(routes: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /api/admin/me': () => errorResponse(401, 'UNAUTHENTICATED', 'Sign in to continue'),
    'GET /api/auth/user': () => jsonResponse(owner),
    ...routes,
  });
}

function renderAccount() {
  const rendered = renderInApp(<AccountPage />);
  rendered.queryClient.setQueryData(currentUserQueryOptions().queryKey, owner);
  return rendered;
}

describe('the name form', () => {
  it('saves the name and updates who is signed in', async () => {
    const { requests } = stubAccountFetch({
      'PATCH /api/auth/user': () => jsonResponse({ ...owner, firstName: 'Augusta', lastName: null }),
    });
    const { queryClient } = renderAccount();
    const user = userEvent.setup();
    const first = await screen.findByLabelText('First name');
    expect(first).toHaveValue('Ada');
    await user.clear(first);
    await user.type(first, 'Augusta');
    await user.clear(screen.getByLabelText('Last name'));
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Name saved.');
    expect(requests.find((request) => request.method === 'PATCH')?.body).toEqual({ firstName: 'Augusta', lastName: '' });
    expect(queryClient.getQueryData(currentUserQueryOptions().queryKey)).toMatchObject({ firstName: 'Augusta', lastName: null });
  });

  it('does not send a name of only spaces and says what to do', async () => {
    const { requests } = stubAccountFetch();
    renderAccount();
    const user = userEvent.setup();
    const first = await screen.findByLabelText('First name');
    await user.clear(first);
    await user.type(first, '   ');
    expect(screen.getByRole('alert')).toHaveTextContent('A name cannot be only spaces: type a name or leave the field empty.');
    expect(screen.getByRole('button', { name: 'Save name' })).toBeDisabled();
    expect(requests.some((request) => request.method === 'PATCH')).toBe(false);
  });
});

describe('the password form', () => {
  async function fill(current: string, next: string, repeated = next) {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Current password'), current);
    await user.type(screen.getByLabelText('New password'), next);
    await user.type(screen.getByLabelText('Repeat the new password'), repeated);
    return user;
  }

  it('changes the password and says the other devices were signed out', async () => {
    const { requests } = stubAccountFetch({
      'POST /api/auth/password': () => jsonResponse({ success: true }),
    });
    renderAccount();
    const user = await fill('correct horse battery', 'brand new horse staple');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Password changed. Use the new password from now on');
    expect(screen.getByRole('status')).toHaveTextContent('your other devices were signed out');
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      currentPassword: 'correct horse battery',
      newPassword: 'brand new horse staple',
    });
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });

  it('shows why a weak password was refused and what to do', async () => {
    stubAccountFetch({
      'POST /api/auth/password': () =>
        errorResponse(400, 'WEAK_PASSWORD', 'Choose a stronger password: add a few more words that are not common (this is one of the ten most used passwords).'),
    });
    renderAccount();
    const user = await fill('correct horse battery', '12345678');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Password not changed: Choose a stronger password: add a few more words that are not common',
    );
  });

  it('says when the current password is wrong', async () => {
    stubAccountFetch({
      'POST /api/auth/password': () => errorResponse(400, 'WRONG_PASSWORD', 'The current password is not correct: type the password you sign in with now'),
    });
    renderAccount();
    const user = await fill('not it', 'brand new horse staple');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Password not changed: The current password is not correct');
  });

  it('does not send two different new passwords', async () => {
    const { requests } = stubAccountFetch();
    renderAccount();
    await fill('correct horse battery', 'brand new horse staple', 'brand new horse stapel');
    expect(screen.getByRole('alert')).toHaveTextContent('The two new passwords differ');
    expect(screen.getByRole('button', { name: 'Change password' })).toBeDisabled();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);
  });
});

describe('the email form', () => {
  async function fill(newEmail: string, password: string) {
    const user = userEvent.setup();
    const form = within(await screen.findByRole('form', { name: 'Change email' }));
    await user.type(form.getByLabelText('New email'), newEmail);
    await user.type(form.getByLabelText('Your password'), password);
    await user.click(form.getByRole('button', { name: 'Send confirmation link' }));
    return form;
  }

  it('asks for a link to the new address and says the email changes when it is opened', async () => {
    const message = 'We sent a link to ada.king@example.com. Your email changes when you open it (within 24 hours); until then, sign in with your current email.';
    const { requests } = stubAccountFetch({
      'POST /api/auth/email': () => jsonResponse({ status: 'confirmation_sent', email: 'ada.king@example.com', message }, 202),
    });
    renderAccount();
    const form = await fill(' ada.king@example.com ', 'correct horse battery');
    expect(await form.findByRole('status')).toHaveTextContent(message);
    expect(requests.find((request) => request.url === '/api/auth/email')?.body).toEqual({ newEmail: 'ada.king@example.com', currentPassword: 'correct horse battery' });
    expect(form.getByLabelText('Your password')).toHaveValue('');
  });

  it('says when the address is taken, or when email is not set up on the server', async () => {
    stubAccountFetch({ 'POST /api/auth/email': () => errorResponse(409, 'EMAIL_TAKEN', 'An account with this email already exists') });
    const { unmount } = renderAccount();
    const form = await fill('taken@example.com', 'correct horse battery');
    expect(await form.findByRole('alert')).toHaveTextContent('Email not changed: An account with this email already exists');
    unmount();

    stubAccountFetch({
      'POST /api/auth/email': () =>
        errorResponse(409, 'EMAIL_NOT_SET_UP', 'Email is not set up on this server, so a new address cannot be confirmed and your email cannot be changed.'),
    });
    renderAccount();
    const again = await fill('new@example.com', 'correct horse battery');
    expect(await again.findByRole('alert')).toHaveTextContent('your email cannot be changed');
  });
});

describe('the delete form', () => {
  it('stays disabled until the confirming words are typed', async () => {
    const { requests } = stubAccountFetch();
    renderAccount();
    const user = userEvent.setup();
    const form = within(await screen.findByRole('form', { name: 'Delete account' }));
    await user.type(form.getByLabelText('Your password'), 'correct horse battery');
    await user.type(form.getByLabelText('Type “delete my account” to confirm'), 'delete my');
    expect(form.getByRole('button', { name: 'Delete my account' })).toBeDisabled();
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false);
  });

  it('deletes the account with the password, signs out and says so', async () => {
    const { requests } = stubAccountFetch({ 'DELETE /api/auth/user': () => jsonResponse({ success: true }) });
    const { queryClient } = renderAccount();
    const user = userEvent.setup();
    const form = within(await screen.findByRole('form', { name: 'Delete account' }));
    await user.type(form.getByLabelText('Your password'), 'correct horse battery');
    await user.type(form.getByLabelText('Type “delete my account” to confirm'), 'Delete my account');
    await user.click(form.getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('Your account has been deleted.')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'DELETE')?.body).toEqual({ currentPassword: 'correct horse battery', confirmation: 'Delete my account' });
    expect(queryClient.getQueryData(currentUserQueryOptions().queryKey)).toBeNull();
  });

  it('keeps the account and says why when the password is wrong', async () => {
    stubAccountFetch({
      'DELETE /api/auth/user': () => errorResponse(400, 'WRONG_PASSWORD', 'The current password is not correct: type the password you sign in with now'),
    });
    renderAccount();
    const user = userEvent.setup();
    const form = within(await screen.findByRole('form', { name: 'Delete account' }));
    await user.type(form.getByLabelText('Your password'), 'not it');
    await user.type(form.getByLabelText('Type “delete my account” to confirm'), 'delete my account');
    await user.click(form.getByRole('button', { name: 'Delete my account' }));
    expect(await form.findByRole('alert')).toHaveTextContent('Account not deleted: The current password is not correct');
    expect(screen.queryByTestId('navigated-away')).toBeNull();
  });
});
