// `/admin/export`: the Export screen.
import { createFileRoute } from '@tanstack/react-router';
import { ExportPage } from '../../../../features/export/export-page';
import { prefetchExportPage } from '../../../../features/export/queries';

export const Route = createFileRoute('/_app/_admin/admin/export')({
  loader: ({ context: { queryClient } }) => prefetchExportPage(queryClient),
  component: ExportPage,
});
