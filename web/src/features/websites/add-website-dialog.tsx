// The Add Website dialog (spec sections 4, 5 and 8): name and domain are required; on success it
// closes and clears. A 403 means the plan's website limit: the server's message is shown with an
// 'Upgrade Plan' action instead of the generic failure.
import { Link } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { ToastAction } from '../../components/ui/toast';
import { getErrorStatus, getServerMessage } from '../../lib/api';
import { useAddWebsite } from './mutations';

export function AddWebsiteDialog({ triggerLabel = 'Add Website' }: { triggerLabel?: string }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [domain, setDomain] = useState('');
  const addWebsite = useAddWebsite();
  const { toast } = useToast();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    addWebsite.mutate(
      { name: name.trim(), domain: domain.trim() },
      {
        onSuccess: () => {
          toast({ title: 'Website added', description: 'Your website has been successfully added.' });
          setName('');
          setDomain('');
          setOpen(false);
        },
        onError: (error) => {
          if (getErrorStatus(error) === 403) {
            setOpen(false);
            toast({
              title: 'Subscription Limit Reached',
              description: getServerMessage(error),
              variant: 'destructive',
              action: (
                <ToastAction altText="Upgrade Plan" asChild>
                  <Link to="/pricing">Upgrade Plan</Link>
                </ToastAction>
              ),
            });
            return;
          }
          toast({ title: 'Error', description: 'Failed to add website. Please try again.', variant: 'destructive' });
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
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
            <DialogDescription>Add a website to start collecting consent choices on it.</DialogDescription>
          </DialogHeader>
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
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={addWebsite.isPending}>
              {addWebsite.isPending ? 'Adding...' : 'Add Website'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
