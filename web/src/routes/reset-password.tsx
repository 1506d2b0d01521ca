// `/reset-password#<token>`: choosing a new password through a reset link (the token stays in the fragment).
import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '../features/auth/reset-password-page';

export const Route = createFileRoute('/reset-password')({
  component: ResetPasswordRoute,
});

function ResetPasswordRoute() {
  return <ResetPasswordPage token={window.location.hash.replace(/^#/, '')} />;
}
