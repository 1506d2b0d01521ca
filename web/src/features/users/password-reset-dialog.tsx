// An admin creates a password reset link for an owner and hands it over (for installations that send
// no email, or an owner who lost their inbox). The link is shown once, works once and for 24 hours;
// a new one replaces the old.
import { useMutation } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { SnippetBlock } from '../../components/snippet-block';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '../../components/ui/dialog';
import { getServerMessage, sendJson } from '../../lib/api';
import type { ApiAnswer } from '../../lib/api-types';
import { formatDateTime } from '../../lib/format';
import { getUserDisplayName, type ManagedUser } from './queries';

type PasswordResetLink = ApiAnswer<'/api/admin/users/{userId}/password-reset', 'post', 201>;

export function PasswordResetLinkDialog({ user }: { user: ManagedUser }) {
  const [open, setOpen] = useState(false);
  const create = useMutation({
    mutationFn: () => sendJson<PasswordResetLink>('POST', `/api/admin/users/${encodeURIComponent(user.id)}/password-reset`),
  });
  const name = getUserDisplayName(user);

  function changeOpen(next: boolean) {
    setOpen(next);
    // The link is shown once: closing forgets it.
    if (!next) create.reset();
  }

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Password reset link for ${name}`}>
          <KeyRound aria-hidden />
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Password reset link for {name}</DialogTitle>
          <DialogDescription>
            {create.data
              ? `Give this link to ${user.email} yourself. It works once, until ${formatDateTime(create.data.expiresAt)}, and is shown only now.`
              : `Create a link with which ${user.email} chooses a new password; it signs them out everywhere else. An earlier link stops working.`}
          </DialogDescription>
        </DialogHeader>
        {create.data ? <SnippetBlock snippet={create.data.resetUrl} label="Password reset link" /> : null}
        {create.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Failed to create the link: {getServerMessage(create.error)}
          </p>
        ) : null}
        <DialogFooter>
          {create.data ? (
            <Button type="button" onClick={() => changeOpen(false)}>
              Done
            </Button>
          ) : (
            <>
              <Button type="button" variant="outline" onClick={() => changeOpen(false)}>
                Cancel
              </Button>
              <Button type="button" disabled={create.isPending} onClick={() => create.mutate()}>
                {create.isPending ? 'Creating...' : 'Create link'}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
