// Choosing a new admin password: required after the first sign-in with the generated password (the
// api refuses everything else until then), and usable by any admin. The current password is asked
// again; the new one twice, so a typo cannot lock the admin out.
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { getServerMessage, sendJson } from '../../lib/api';
import { currentAdminQueryOptions } from './queries';

export function AdminPasswordForm() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [busy, setBusy] = useState(false);
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mismatch = repeated !== '' && repeated !== newPassword;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (newPassword !== repeated) return;
    setBusy(true);
    try {
      await sendJson('POST', '/api/admin/password', { currentPassword, newPassword });
    } catch (error) {
      toast({ title: 'Password not changed', description: getServerMessage(error), variant: 'destructive' });
      setBusy(false);
      return;
    }
    toast({ title: 'Password changed', description: 'Use the new password from now on.' });
    await queryClient.fetchQuery({ ...currentAdminQueryOptions(), staleTime: 0 }).catch(() => null);
    setBusy(false);
    await navigate({ to: '/admin/websites' });
  }

  return (
    <form className="space-y-4" onSubmit={(event) => void save(event)}>
      <div className="space-y-2">
        <Label htmlFor="admin-current-password">Current password</Label>
        <Input
          id="admin-current-password"
          type="password"
          autoComplete="current-password"
          required
          disabled={busy}
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor="admin-new-password">New password</Label>
        <Input
          id="admin-new-password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={128}
          disabled={busy}
          value={newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        <p className="text-xs text-muted-foreground">8 to 128 characters and hard to guess: a few unrelated words work well; common passwords and your username are refused.</p>
      </div>
      <div className="space-y-2">
        <Label htmlFor="admin-repeat-password">Repeat the new password</Label>
        <Input
          id="admin-repeat-password"
          type="password"
          autoComplete="new-password"
          required
          disabled={busy}
          value={repeated}
          aria-invalid={mismatch}
          aria-describedby={mismatch ? 'admin-repeat-password-error' : undefined}
          onChange={(event) => setRepeated(event.target.value)}
        />
        {mismatch ? (
          <p id="admin-repeat-password-error" role="alert" className="text-xs text-destructive">
            The two new passwords differ.
          </p>
        ) : null}
      </div>
      <Button type="submit" className="w-full" disabled={busy || mismatch}>
        {busy ? 'Saving...' : 'Save new password'}
      </Button>
    </form>
  );
}
