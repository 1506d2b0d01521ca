// `/confirm-email#<token>`: confirming a registration (the token stays in the fragment).
import { createFileRoute } from '@tanstack/react-router';
import { ConfirmEmailPage } from '../features/auth/confirm-email-page';

export const Route = createFileRoute('/confirm-email')({
  component: ConfirmEmailRoute,
});

function ConfirmEmailRoute() {
  return <ConfirmEmailPage token={window.location.hash.replace(/^#/, '')} />;
}
