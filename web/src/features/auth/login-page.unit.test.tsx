// The owner sign-in screen offers a way back in for a forgotten password.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInApp, stubFetch } from '../../test/render';
import { LoginPage } from './login-page';

describe('the owner sign-in screen', () => {
  it('links a forgotten password to /forgot-password', async () => {
    stubFetch({});
    renderInApp(<LoginPage />);
    expect(await screen.findByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/forgot-password');
  });
});
