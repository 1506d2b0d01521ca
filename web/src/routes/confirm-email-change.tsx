// `/confirm-email-change#<token>`: confirming an owner's new email (the token stays in the fragment).
import { createFileRoute } from '@tanstack/react-router';
import { ConfirmEmailChangePage } from '../features/account/confirm-email-change-page';

export const Route = createFileRoute('/confirm-email-change')({
  component: ConfirmEmailChangeRoute,
});

function ConfirmEmailChangeRoute() {
  return <ConfirmEmailChangePage token={window.location.hash.replace(/^#/, '')} />;
}
