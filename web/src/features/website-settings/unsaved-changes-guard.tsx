// Asks before the owner leaves the settings with unsaved changes: a navigation inside the app (another
// tab of the website, the sidebar, the website switcher) waits for a confirmation in the app's dialog
// (TanStack Router's useBlocker); closing or reloading the browser tab gets the browser's own
// question (beforeunload). Nothing is asked once the changes are saved or discarded.
import { useBlocker } from '@tanstack/react-router';
import { useCallback, useEffect } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../components/ui/alert-dialog';

export function UnsavedChangesGuard({ count, summary }: { count: number; summary: string }) {
  const unsaved = count > 0;
  // The same page with other search parameters keeps the form and its changes: only leaving it asks.
  const shouldBlock = useCallback(
    ({ current, next }: { current: { pathname: string }; next: { pathname: string } }) => current.pathname !== next.pathname,
    [],
  );
  const blocker = useBlocker({ shouldBlockFn: shouldBlock, withResolver: true, enableBeforeUnload: false, disabled: !unsaved });

  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      // The browser asks in its own words; preventDefault is what makes it ask.
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  return (
    // Stay, Escape and closing the dialog all keep the owner here.
    <AlertDialog open={blocker.status === 'blocked'} onOpenChange={(open) => (open ? undefined : blocker.reset?.())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Leave without saving?</AlertDialogTitle>
          <AlertDialogDescription>
            {summary}. If you leave this page now, {count === 1 ? 'it is' : 'they are'} lost.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Stay on this page</AlertDialogCancel>
          <AlertDialogAction onClick={() => blocker.proceed?.()}>Leave without saving</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
