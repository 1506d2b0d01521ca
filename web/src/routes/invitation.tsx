// `/invitation#<token>`: accepting an admin's invitation (the token stays in the fragment).
import { createFileRoute } from '@tanstack/react-router';
import { InvitationPage } from '../features/auth/invitation-page';

export const Route = createFileRoute('/invitation')({
  component: InvitationRoute,
});

function InvitationRoute() {
  return <InvitationPage token={window.location.hash.replace(/^#/, '')} />;
}
