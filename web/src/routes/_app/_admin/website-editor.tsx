// `/website-editor`: the admins' editor of the public landing page.
import { createFileRoute } from '@tanstack/react-router';
import { WebsiteEditorPage } from '../../../features/website-editor/website-editor-page';

export const Route = createFileRoute('/_app/_admin/website-editor')({
  component: WebsiteEditorPage,
});
