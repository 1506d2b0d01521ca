// The user edit and invite dialogs and the delete confirmation of User Management. Every write
// refreshes the ['users'] list only.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Pencil, Trash, UserPlus } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useToast } from "../../components/toaster";
import { SnippetBlock } from "../../components/snippet-block";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "../../components/ui/alert-dialog";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../components/ui/dialog";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "../../components/ui/select";
import { Switch } from "../../components/ui/switch";
import { apiRequest, getServerMessage, sendJson } from "../../lib/api";
import type { ApiAnswer, ApiBody } from "../../lib/api-types";
import type { SubscriptionPlan } from "../subscription/queries";
import {
  getUserDisplayName,
  getInviteDefaults,
  managedUsersQueryOptions,
  subscriptionStatuses,
  type ManagedUser,
} from "./queries";
import { TierFields } from "./tier-fields";

type UserUpdate = ApiBody<"/api/admin/users/{userId}", "put">;

function useRefreshUsers() {
  const queryClient = useQueryClient();
  return () =>
    queryClient.invalidateQueries({
      queryKey: managedUsersQueryOptions().queryKey,
    });
}

export function EditUserDialog({
  user,
  plans,
}: {
  user: ManagedUser;
  plans: SubscriptionPlan[];
}) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<UserUpdate>(() => toUpdate(user));
  const refreshUsers = useRefreshUsers();
  const { toast } = useToast();
  const update = useMutation({
    mutationFn: (body: UserUpdate) =>
      apiRequest(
        "PUT",
        `/api/admin/users/${encodeURIComponent(user.id)}`,
        body,
      ),
    onSuccess: refreshUsers,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    update.mutate(form, {
      onSuccess: () => {
        toast({ title: "User updated successfully" });
        setOpen(false);
      },
      onError: (error) =>
        toast({
          title: `Failed to update user: ${getServerMessage(error)}`,
          variant: "destructive",
        }),
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) setForm(toUpdate(user));
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Edit ${getUserDisplayName(user)}`}
        >
          <Pencil aria-hidden />
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Edit user</DialogTitle>
            <DialogDescription>{getUserDisplayName(user)}</DialogDescription>
          </DialogHeader>
          <TierFields
            idPrefix="edit"
            form={form}
            plans={plans}
            onChange={setForm}
          />
          <div className="space-y-2">
            <Label htmlFor="edit-status">Subscription status</Label>
            <Select
              value={form.subscriptionStatus}
              onValueChange={(value) => {
                const subscriptionStatus = subscriptionStatuses.find((status) => status === value);
                if (subscriptionStatus) setForm({ ...form, subscriptionStatus });
              }}
            >
              <SelectTrigger id="edit-status" aria-label="Subscription status">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {subscriptionStatuses.map((status) => (
                  <SelectItem key={status} value={status}>
                    {status}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="flex items-center gap-3">
            <Switch
              id="edit-active"
              checked={form.isActive}
              onCheckedChange={(isActive) => setForm({ ...form, isActive })}
            />
            <Label htmlFor="edit-active">Account active</Label>
          </div>
          <DialogFooter>
            <Button
              type="button"
              variant="outline"
              onClick={() => setOpen(false)}
            >
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? "Saving..." : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function toUpdate(user: ManagedUser): UserUpdate {
  return {
    subscriptionTier: user.subscriptionTier,
    subscriptionStatus: user.subscriptionStatus,
    maxWebsites: user.maxWebsites,
    maxConsentsPerMonth: user.maxConsentsPerMonth,
    isActive: user.isActive,
  };
}

export function DeleteUserButton({ user }: { user: ManagedUser }) {
  const refreshUsers = useRefreshUsers();
  const { toast } = useToast();
  const remove = useMutation({
    mutationFn: () =>
      apiRequest("DELETE", `/api/admin/users/${encodeURIComponent(user.id)}`),
    onSuccess: refreshUsers,
  });

  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Delete ${getUserDisplayName(user)}`}
          disabled={remove.isPending}
          className="text-destructive hover:bg-destructive/10 hover:text-destructive"
        >
          <Trash aria-hidden />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>
            Delete {getUserDisplayName(user)}?
          </AlertDialogTitle>
          <AlertDialogDescription>
            Are you sure you want to delete this user? This action cannot be
            undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => toast({ title: "User deleted successfully" }),
                onError: (error) =>
                  toast({
                    title: `Failed to delete user: ${getServerMessage(error)}`,
                    variant: "destructive",
                  }),
              })
            }
          >
            Delete
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

type Invitation = Required<ApiBody<"/api/admin/users/invite", "post">>;

const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the api answers an invitation with: the single-use link, shown once, and whether it was emailed. */
type SentInvitation = ApiAnswer<"/api/admin/users/invite", "post", 201>;

export function InviteUserDialog({ plans }: { plans: SubscriptionPlan[] }) {
  const [open, setOpen] = useState(false);
  const emptyInvitation = (): Invitation => ({ email: "", ...getInviteDefaults(plans) });
  const [form, setForm] = useState<Invitation>(emptyInvitation);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [sent, setSent] = useState<SentInvitation | null>(null);
  const refreshUsers = useRefreshUsers();
  const { toast } = useToast();
  const invite = useMutation({
    mutationFn: (body: Invitation) =>
      sendJson<SentInvitation>("POST", "/api/admin/users/invite", body),
    onSuccess: refreshUsers,
  });

  function changeOpen(next: boolean) {
    setOpen(next);
    if (!next) setSent(null);
    // Each opening starts a fresh invitation on the plans' current limits (they may load late).
    if (next) setForm(emptyInvitation());
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = form.email.trim();
    if (!emailShape.test(email)) {
      setEmailError("Enter a valid email address.");
      return;
    }
    setEmailError(null);
    invite.mutate(
      { ...form, email },
      {
        onSuccess: (invitation) => {
          // Only an emailed invitation was sent; otherwise the dialog says to hand the link over.
          if (invitation.inviteEmailSent) toast({ title: `Invitation sent to ${email}` });
          setForm(emptyInvitation());
          // The link is shown once: the dialog stays open with it until the admin closes it.
          setSent(invitation);
        },
        onError: (error) =>
          toast({
            title: `Failed to send invitation: ${getServerMessage(error)}`,
            variant: "destructive",
          }),
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden />
          Invite User
        </Button>
      </DialogTrigger>
      <DialogContent>
        {sent ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Invitation link</DialogTitle>
              <DialogDescription>
                {sent.inviteEmailSent
                  ? `We emailed this link to ${sent.email}. It works once and for 7 days.`
                  : `Email is not set up on this server: send this link to ${sent.email} yourself. It works once and for 7 days, and is shown only now.`}
              </DialogDescription>
            </DialogHeader>
            <SnippetBlock snippet={sent.inviteUrl} label="Invitation link" />
            <DialogFooter>
              <Button type="button" onClick={() => changeOpen(false)}>
                Done
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={submit} noValidate className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Invite user</DialogTitle>
              <DialogDescription>
                Send an invitation with a plan and its limits.
              </DialogDescription>
            </DialogHeader>
            <div className="space-y-2">
              <Label htmlFor="invite-email">Email</Label>
              <Input
                id="invite-email"
                type="email"
                required
                maxLength={254}
                aria-invalid={emailError !== null}
                aria-describedby={emailError ? "invite-email-error" : undefined}
                value={form.email}
                onChange={(event) =>
                  setForm({ ...form, email: event.target.value })
                }
              />
              {emailError ? (
                <p id="invite-email-error" className="text-xs text-destructive">
                  {emailError}
                </p>
              ) : null}
            </div>
            <TierFields
              idPrefix="invite"
              form={form}
              plans={plans}
              onChange={setForm}
            />
            <DialogFooter>
              <Button
                type="button"
                variant="outline"
                onClick={() => setOpen(false)}
              >
                Cancel
              </Button>
              <Button type="submit" disabled={invite.isPending}>
                {invite.isPending ? "Sending..." : "Send Invitation"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
