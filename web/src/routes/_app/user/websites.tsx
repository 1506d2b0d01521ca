// `/user/websites`: the Websites screen.
import { createFileRoute } from '@tanstack/react-router';
import { WebsitesPage } from '../../../features/websites/websites-page';

export const Route = createFileRoute('/_app/user/websites')({
  component: WebsitesPage,
});
