// `/admin/setup-instructions`: the Setup Guide screen.
import { createFileRoute } from '@tanstack/react-router';
import { SetupGuidePage } from '../../../../features/setup-guide/setup-guide-page';

export const Route = createFileRoute('/_app/_admin/admin/setup-instructions')({
  component: SetupGuidePage,
});
