// `/user/export`: the Export screen.
import { createFileRoute } from '@tanstack/react-router';
import { ExportPage } from '../../../features/export/export-page';

export const Route = createFileRoute('/_app/user/export')({
  component: ExportPage,
});
