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
import { NewPasswordFields, repeatDiffers } from './new-password-fields';

export function AdminPasswordForm() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [busy, setBusy] = useState(false);
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mismatch = repeatDiffers(newPassword, repeated);

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
      <NewPasswordFields
        idPrefix="admin"
        password={newPassword}
        repeated={repeated}
        onPasswordChange={setNewPassword}
        onRepeatedChange={setRepeated}
        disabled={busy}
        hint="8 to 128 characters and hard to guess: a few unrelated words work well; common passwords and your username are refused."
        mismatchText="The two new passwords differ."
      />
      <Button type="submit" className="w-full" disabled={busy || mismatch}>
        {busy ? 'Saving...' : 'Save new password'}
      </Button>
    </form>
  );
}
