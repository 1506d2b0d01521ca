// `/invitation#<token>`: someone an admin invited chooses their password and finishes sign-up. The
// token is in the fragment (never sent to the server with the page request, never in its logs);
// this page sends it in POST bodies only.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { AuthCard } from "../../components/auth-card";
import { LoadingState } from "../../components/query-state";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { getServerMessage, sendJson } from "../../lib/api";
import { minPasswordLength } from "./login-forms";
import type { ApiAnswer } from "../../lib/api-types";
import { currentUserQueryOptions } from "./queries";

export function InvitationPage({ token }: { token: string }) {
  const invitation = useQuery({
    queryKey: ["invitation", token],
    queryFn: () =>
      sendJson<ApiAnswer<"/api/auth/invitation", "post">>(
        "POST",
        "/api/auth/invitation",
        { token },
      ),
    retry: false,
    staleTime: Infinity,
  });
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const router = useRouter();

  async function accept(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const { user } = await sendJson<ApiAnswer<"/api/auth/invitation/accept", "post", 201>>(
        "POST",
        "/api/auth/invitation/accept",
        { token, password, firstName, lastName },
      );
      queryClient.setQueryData(currentUserQueryOptions().queryKey, user);
      router.history.replace("/dashboard");
    } catch (error) {
      setFailure(getServerMessage(error));
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title="Accept your invitation"
      description={
        invitation.data
          ? `Choose a password for ${invitation.data.email} to finish setting up your account.`
          : "Checking your invitation link…"
      }
      contentClassName=""
    >
      {invitation.isPending ? (
        <LoadingState />
      ) : invitation.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {token
            ? getServerMessage(invitation.error)
            : "This page needs the whole invitation link, as you received it."}
        </p>
      ) : (
        <form
          className="space-y-4"
          onSubmit={(event) => void accept(event)}
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-2">
              <Label htmlFor="invitation-first-name">First name</Label>
              <Input
                id="invitation-first-name"
                autoComplete="given-name"
                maxLength={100}
                disabled={busy}
                value={firstName}
                onChange={(event) => setFirstName(event.target.value)}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="invitation-last-name">Last name</Label>
              <Input
                id="invitation-last-name"
                autoComplete="family-name"
                maxLength={100}
                disabled={busy}
                value={lastName}
                onChange={(event) => setLastName(event.target.value)}
              />
            </div>
          </div>
          <div className="space-y-2">
            <Label htmlFor="invitation-email">Email</Label>
            <Input
              id="invitation-email"
              type="email"
              autoComplete="username"
              readOnly
              value={invitation.data.email}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor="invitation-password">Password</Label>
            <Input
              id="invitation-password"
              type="password"
              autoComplete="new-password"
              required
              minLength={minPasswordLength}
              maxLength={128}
              disabled={busy}
              value={password}
              aria-describedby="invitation-password-hint"
              onChange={(event) => setPassword(event.target.value)}
            />
            <p
              id="invitation-password-hint"
              className="text-xs text-muted-foreground"
            >
              {minPasswordLength} to 128 characters and hard to guess: a few unrelated words work well; common passwords and your own name or email are refused.
            </p>
          </div>
          {failure ? (
            <p role="alert" className="text-sm text-destructive">
              {failure}
            </p>
          ) : null}
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Creating account..." : "Create account"}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
