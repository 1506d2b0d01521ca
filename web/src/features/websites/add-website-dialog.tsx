// The Add Website dialog (spec sections 4, 5 and 8): name and domain are required; on success it
// closes and clears. The plan's website limit (403 WEBSITE_LIMIT_REACHED) shows the server's message
// with an 'Upgrade Plan' action; any other refusal keeps the dialog open with the api's reason (a
// malformed domain, an owner the admin may not add for); a failure without one (5xx, no answer)
// shows the generic failure toast.
// An admin chooses the owner the website is for (it counts against that owner's plan).
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Plus } from "lucide-react";
import { useState, type FormEvent } from "react";
import { FormMessage } from "../../components/form-message";
import { useToast } from "../../components/toaster";
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
import { ToastAction } from "../../components/ui/toast";
import {
  ApiError,
  getErrorCode,
  getErrorStatus,
  getServerMessage,
} from "../../lib/api";
import { getUserDisplayName, managedUsersQueryOptions } from "../users/queries";
import { useAddWebsite } from "./mutations";

export const websiteLimitCode = "WEBSITE_LIMIT_REACHED";
const websiteLimitMessage = "Website limit reached";

/** True for the plan-limit refusal (spec section 7: a 403 whose error is 'Website limit reached'). */
export function isWebsiteLimitError(error: unknown): boolean {
  if (getErrorStatus(error) !== 403) return false;
  return (
    getErrorCode(error) === websiteLimitCode ||
    getServerMessage(error) === websiteLimitMessage
  );
}

export function AddWebsiteDialog({
  triggerLabel = "Add Website",
  chooseOwner = false,
}: {
  triggerLabel?: string;
  chooseOwner?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [domain, setDomain] = useState("");
  const [ownerId, setOwnerId] = useState("");
  const users = useQuery({
    ...managedUsersQueryOptions(),
    enabled: chooseOwner && open,
  });
  const owners = (users.data ?? []).filter(
    (user) => user.status !== "invited" && user.isActive,
  );
  const [refusal, setRefusal] = useState<string | null>(null);
  const addWebsite = useAddWebsite();
  const { toast } = useToast();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setRefusal(null);
    if (chooseOwner && !ownerId) {
      setRefusal("Choose the owner this website is for.");
      return;
    }
    addWebsite.mutate(
      {
        name: name.trim(),
        domain: domain.trim(),
        ...(chooseOwner ? { ownerId } : {}),
      },
      {
        onSuccess: () => {
          toast({
            title: "Website added",
            description: "Your website has been successfully added.",
          });
          setName("");
          setDomain("");
          setOwnerId("");
          setOpen(false);
        },
        onError: (error) => {
          if (isWebsiteLimitError(error)) {
            setOpen(false);
            toast({
              title: "Subscription Limit Reached",
              description: getServerMessage(error),
              variant: "destructive",
              action: (
                <ToastAction altText="Upgrade Plan" asChild>
                  <Link to="/pricing">Upgrade Plan</Link>
                </ToastAction>
              ),
            });
            return;
          }
          // The api's reason for a refusal it understood (4xx) is said once, in the dialog beside the
          // fields: trying again would not help. Anything else (a 5xx, no answer) may pass on a retry.
          const status = getErrorStatus(error);
          const refused = error instanceof ApiError && status !== null && status < 500;
          setRefusal(refused ? getServerMessage(error) : null);
          if (!refused) {
            toast({
              title: "Error",
              description: "Failed to add website. Please try again.",
              variant: "destructive",
            });
          }
        },
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setRefusal(null);
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden />
          {triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Add Website</DialogTitle>
            <DialogDescription>
              Add a website to start collecting consent choices on it.
            </DialogDescription>
          </DialogHeader>
          {chooseOwner ? (
            <div className="space-y-2">
              <Label htmlFor="website-owner">Owner</Label>
              <Select
                value={ownerId}
                onValueChange={setOwnerId}
                disabled={addWebsite.isPending}
              >
                <SelectTrigger id="website-owner" aria-label="Owner">
                  <SelectValue
                    placeholder={
                      users.isPending
                        ? "Loading owners…"
                        : owners.length === 0
                          ? "No owners yet"
                          : "Choose an owner"
                    }
                  />
                </SelectTrigger>
                <SelectContent>
                  {owners.map((owner) => (
                    <SelectItem key={owner.id} value={owner.id}>
                      {getUserDisplayName(owner)}
                      {owner.email && getUserDisplayName(owner) !== owner.email
                        ? ` (${owner.email})`
                        : ""}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <p className="text-xs text-muted-foreground">
                The website counts against this owner’s plan. Invite new owners
                in User Management.
              </p>
            </div>
          ) : null}
          <div className="space-y-2">
            <Label htmlFor="website-name">Website Name</Label>
            <Input
              id="website-name"
              placeholder="My Website"
              required
              maxLength={200}
              disabled={addWebsite.isPending}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor="website-domain">Domain</Label>
            <Input
              id="website-domain"
              placeholder={window.location.host}
              required
              maxLength={253}
              disabled={addWebsite.isPending}
              value={domain}
              onChange={(event) => setDomain(event.target.value)}
            />
          </div>
          <FormMessage tone="failure">{refusal}</FormMessage>
          <DialogFooter>
            <Button
              type="button"
              variant="outline"
              onClick={() => setOpen(false)}
            >
              Cancel
            </Button>
            <Button type="submit" disabled={addWebsite.isPending}>
              {addWebsite.isPending ? "Adding..." : "Add Website"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
