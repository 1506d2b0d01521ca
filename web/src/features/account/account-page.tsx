// The Account page (/account): the signed-in owner changes their name, their password and their
// email (confirmed through a link sent to the new address), or deletes their account. Each form says
// what happened and, when the api refuses, what to do (the api's own words: a weak password's advice,
// a wrong current password, an email in use, email not set up on the server).
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { PageHeader } from '../../components/page-header';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { getServerMessage, sendJson } from '../../lib/api';
import type { ApiAnswer } from '../../lib/api-types';
import { currentUserQueryOptions, type SessionUser } from '../auth/queries';
import { useSession } from '../auth/use-session';
import { NewPasswordFields, repeatDiffers } from '../auth/new-password-fields';

type Outcome = { kind: 'done' | 'failed'; text: string } | null;

function OutcomeMessage({ id, outcome }: { id: string; outcome: Outcome }) {
  if (!outcome) return null;
  return outcome.kind === 'done' ? (
    <p id={id} role="status" className="text-sm text-green-700 dark:text-green-400">
      {outcome.text}
    </p>
  ) : (
    <p id={id} role="alert" className="text-sm text-destructive">
      {outcome.text}
    </p>
  );
}

export function NameForm({ user }: { user: SessionUser }) {
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const queryClient = useQueryClient();
  const onlySpaces = (name: string) => name !== '' && name.trim() === '';
  const blocked = onlySpaces(firstName) || onlySpaces(lastName);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (blocked) return;
    setBusy(true);
    setOutcome(null);
    try {
      const saved = await sendJson<SessionUser>('PATCH', '/api/auth/user', { firstName, lastName });
      queryClient.setQueryData(currentUserQueryOptions().queryKey, saved);
      setFirstName(saved.firstName ?? '');
      setLastName(saved.lastName ?? '');
      setOutcome({ kind: 'done', text: 'Name saved. It shows in the app from now on.' });
    } catch (error) {
      setOutcome({ kind: 'failed', text: `Name not saved: ${getServerMessage(error)}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="space-y-4" onSubmit={(event) => void save(event)} aria-label="Your name">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="account-first-name">First name</Label>
          <Input
            id="account-first-name"
            autoComplete="given-name"
            maxLength={100}
            disabled={busy}
            value={firstName}
            onChange={(event) => setFirstName(event.target.value)}
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor="account-last-name">Last name</Label>
          <Input
            id="account-last-name"
            autoComplete="family-name"
            maxLength={100}
            disabled={busy}
            value={lastName}
            onChange={(event) => setLastName(event.target.value)}
          />
        </div>
      </div>
      {blocked ? (
        <p role="alert" className="text-sm text-destructive">
          A name cannot be only spaces: type a name or leave the field empty.
        </p>
      ) : null}
      <OutcomeMessage id="account-name-outcome" outcome={outcome} />
      <Button type="submit" disabled={busy || blocked}>
        {busy ? 'Saving...' : 'Save name'}
      </Button>
    </form>
  );
}

export function PasswordForm() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const mismatch = repeatDiffers(newPassword, repeated);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (newPassword !== repeated) return;
    setBusy(true);
    setOutcome(null);
    try {
      await sendJson('POST', '/api/auth/password', { currentPassword, newPassword });
      setCurrentPassword('');
      setNewPassword('');
      setRepeated('');
      setOutcome({
        kind: 'done',
        text: 'Password changed. Use the new password from now on: you stay signed in here, and your other devices were signed out.',
      });
    } catch (error) {
      setOutcome({ kind: 'failed', text: `Password not changed: ${getServerMessage(error)}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="space-y-4" onSubmit={(event) => void save(event)} aria-label="Change password">
      <div className="space-y-2">
        <Label htmlFor="account-current-password">Current password</Label>
        <Input
          id="account-current-password"
          type="password"
          autoComplete="current-password"
          required
          disabled={busy}
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
      </div>
      <NewPasswordFields
        idPrefix="account"
        password={newPassword}
        repeated={repeated}
        onPasswordChange={setNewPassword}
        onRepeatedChange={setRepeated}
        disabled={busy}
        hint="8 to 128 characters and hard to guess: a few unrelated words work well; common passwords and your own name or email are refused."
      />
      <OutcomeMessage id="account-password-outcome" outcome={outcome} />
      <Button type="submit" disabled={busy || mismatch}>
        {busy ? 'Saving...' : 'Change password'}
      </Button>
    </form>
  );
}

type EmailChangeSent = ApiAnswer<'/api/auth/email', 'post', 202>;

export function EmailForm({ user }: { user: SessionUser }) {
  const [newEmail, setNewEmail] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await sendJson<EmailChangeSent>('POST', '/api/auth/email', { newEmail: newEmail.trim(), currentPassword });
      setNewEmail('');
      setCurrentPassword('');
      setOutcome({ kind: 'done', text: answer.message });
    } catch (error) {
      setOutcome({ kind: 'failed', text: `Email not changed: ${getServerMessage(error)}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="space-y-4" onSubmit={(event) => void save(event)} aria-label="Change email">
      <p className="text-sm text-muted-foreground">You sign in with {user.email ?? 'your current email'}.</p>
      <div className="space-y-2">
        <Label htmlFor="account-new-email">New email</Label>
        <Input
          id="account-new-email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          disabled={busy}
          value={newEmail}
          onChange={(event) => setNewEmail(event.target.value)}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor="account-email-password">Your password</Label>
        <Input
          id="account-email-password"
          type="password"
          autoComplete="current-password"
          required
          disabled={busy}
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
      </div>
      <OutcomeMessage id="account-email-outcome" outcome={outcome} />
      <Button type="submit" disabled={busy}>
        {busy ? 'Sending...' : 'Send confirmation link'}
      </Button>
    </form>
  );
}

/** What the owner types to confirm (the api asks for the same words). */
export const deleteAccountConfirmation = 'delete my account';

export function DeleteAccountForm() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { toast } = useToast();
  const confirmed = confirmation.trim().toLowerCase() === deleteAccountConfirmation;

  async function remove(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!confirmed) return;
    setBusy(true);
    setOutcome(null);
    try {
      await sendJson('DELETE', '/api/auth/user', { currentPassword, confirmation });
      queryClient.setQueryData(currentUserQueryOptions().queryKey, null);
      toast({ title: 'Your account has been deleted.' });
      await navigate({ to: '/' });
    } catch (error) {
      setOutcome({ kind: 'failed', text: `Account not deleted: ${getServerMessage(error)}` });
      setBusy(false);
    }
  }

  return (
    <form className="space-y-4" onSubmit={(event) => void remove(event)} aria-label="Delete account">
      <div className="space-y-2">
        <Label htmlFor="account-delete-password">Your password</Label>
        <Input
          id="account-delete-password"
          type="password"
          autoComplete="current-password"
          required
          disabled={busy}
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor="account-delete-confirmation">Type “{deleteAccountConfirmation}” to confirm</Label>
        <Input
          id="account-delete-confirmation"
          autoComplete="off"
          required
          maxLength={100}
          disabled={busy}
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
        />
      </div>
      <OutcomeMessage id="account-delete-outcome" outcome={outcome} />
      <Button type="submit" variant="destructive" disabled={busy || !confirmed}>
        {busy ? 'Deleting...' : 'Delete my account'}
      </Button>
    </form>
  );
}

export function AccountPage() {
  const { user } = useSession();
  return (
    <>
      <PageHeader title="Account" description="Your name, email and password, or deleting your account." />
      {user ? (
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle>Name</CardTitle>
              <CardDescription>How you are greeted in the app. Signed in as {user.email ?? 'you'}.</CardDescription>
            </CardHeader>
            <CardContent>
              <NameForm key={user.id} user={user} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Password</CardTitle>
              <CardDescription>Changing it signs you out on your other devices.</CardDescription>
            </CardHeader>
            <CardContent>
              <PasswordForm />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Email</CardTitle>
              <CardDescription>We send a link to the new address; your email changes when you open it.</CardDescription>
            </CardHeader>
            <CardContent>
              <EmailForm key={user.id} user={user} />
            </CardContent>
          </Card>
          <Card className="border-destructive/40">
            <CardHeader>
              <CardTitle>Delete account</CardTitle>
              <CardDescription>
                Deletes your account and your name, email and password with it, removes your websites (their banners stop showing) and signs
                you out everywhere. This cannot be undone.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <DeleteAccountForm />
            </CardContent>
          </Card>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">
          These settings belong to a website owner account. Admins change their password at /admin/password.
        </p>
      )}
    </>
  );
}
