// `/user/websites`: the Websites screen is /websites.
import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/user/websites')({
  beforeLoad: () => {
    throw redirect({ to: '/websites', replace: true });
  },
});
