// `/website-editor`: the admins' editor of the public landing page.
import { createFileRoute } from '@tanstack/react-router';
import { WebsiteEditorPage } from '../../../features/website-editor/website-editor-page';
import { prefetchScreenData } from '../../../lib/screen-data';
import { adminWebsiteContentQueryOptions } from '../../../features/site/queries';

export const Route = createFileRoute('/_app/_admin/website-editor')({
  loader: ({ context: { queryClient } }) => prefetchScreenData([queryClient.ensureQueryData(adminWebsiteContentQueryOptions())]),
  component: WebsiteEditorPage,
});
