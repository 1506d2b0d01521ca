// The admin login form's state machine (spec sections 4 and 8): idle → busy with everything disabled
// → idle, and the toast for each outcome.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { AdminLoginForm } from './admin-login-form';

async function fillAndSubmit() {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Username'), 'admin');
  await user.type(screen.getByLabelText('Password'), 'secret');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('admin login form', () => {
  describe('while the request is in flight', () => {
    it('disables the inputs and the button and reads Signing in...', async () => {
      const answer = deferred<Response>();
      const { requests } = stubFetch({ 'POST /api/admin/login': () => answer.promise });
      renderInApp(<AdminLoginForm />);
      await fillAndSubmit();

      const busyButton = await screen.findByRole('button', { name: 'Signing in...' });
      expect(busyButton).toBeDisabled();
      expect(screen.getByLabelText('Username')).toBeDisabled();
      expect(screen.getByLabelText('Password')).toBeDisabled();
      expect(requests[0]).toMatchObject({
        method: 'POST',
        body: { username: 'admin', password: 'secret' },
        credentials: 'include',
      });

      answer.resolve(jsonResponse({ success: false, error: 'Invalid username or password' }, 401));
      expect(await screen.findByRole('button', { name: 'Sign in' })).toBeEnabled();
      expect(screen.getByLabelText('Username')).toBeEnabled();
    });
  });

  describe('when the server refuses with an error text', () => {
    it("shows 'Login failed' with the server's text", async () => {
      stubFetch({ 'POST /api/admin/login': () => jsonResponse({ success: false, error: 'Invalid username or password' }, 401) });
      renderInApp(<AdminLoginForm />);
      await fillAndSubmit();
      expect(await screen.findByText('Login failed')).toBeInTheDocument();
      expect(screen.getByText('Invalid username or password')).toBeInTheDocument();
    });
  });

  describe('when the server answers without success or error text', () => {
    it("shows 'Login failed' / 'Invalid credentials'", async () => {
      stubFetch({ 'POST /api/admin/login': () => jsonResponse({ success: false }) });
      renderInApp(<AdminLoginForm />);
      await fillAndSubmit();
      expect(await screen.findByText('Login failed')).toBeInTheDocument();
      expect(screen.getByText('Invalid credentials')).toBeInTheDocument();
    });
  });

  describe('when the answer is HTML instead of JSON', () => {
    it("shows 'Login failed' / 'Unable to connect to server'", async () => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      stubFetch({ 'POST /api/admin/login': () => new Response('<!doctype html><html></html>', { status: 200 }) });
      renderInApp(<AdminLoginForm />);
      await fillAndSubmit();
      expect(await screen.findByText('Login failed')).toBeInTheDocument();
      expect(screen.getByText('Unable to connect to server')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
      expect(String(logged.mock.calls[0]?.[1])).toContain('Server returned HTML instead of JSON');
    });
  });

  describe('when the network fails', () => {
    it("shows 'Login failed' / 'Unable to connect to server'", async () => {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      stubFetch({ 'POST /api/admin/login': () => Promise.reject(new TypeError('Failed to fetch')) });
      renderInApp(<AdminLoginForm />);
      await fillAndSubmit();
      expect(await screen.findByText('Unable to connect to server')).toBeInTheDocument();
    });
  });

  describe('when the credentials are accepted', () => {
    it('welcomes the admin, refreshes the current admin and goes to /admin/websites', async () => {
      const { requests } = stubFetch({
        'POST /api/admin/login': () => jsonResponse({ success: true }),
        'GET /api/admin/me': () => jsonResponse({ username: 'admin' }),
      });
      const { router, queryClient } = renderInApp(<AdminLoginForm />);
      queryClient.setQueryData(['admin', 'me'], null);
      await fillAndSubmit();

      expect(await screen.findByText('Login successful')).toBeInTheDocument();
      expect(screen.getByText('Welcome back!')).toBeInTheDocument();
      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/websites'));
      expect(requests.map((request) => `${request.method} ${request.url}`)).toContain('GET /api/admin/me');
      expect(queryClient.getQueryData(['admin', 'me'])).toEqual({ username: 'admin' });
    });

    it('goes to /admin/password instead when the password was the generated first one', async () => {
      stubFetch({
        'POST /api/admin/login': () => jsonResponse({ success: true }),
        'GET /api/admin/me': () => jsonResponse({ username: 'admin', mustChangePassword: true }),
      });
      const { router, queryClient } = renderInApp(<AdminLoginForm />);
      queryClient.setQueryData(['admin', 'me'], null);
      await fillAndSubmit();
      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/password'));
    });
  });
});
