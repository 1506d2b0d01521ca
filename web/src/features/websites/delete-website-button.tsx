// Deletes a website after confirmation: removing a site stops its banner from recording consents.
import { Trash } from "lucide-react";
import { useToast } from "../../components/toaster";
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
import { useDeleteWebsite } from "./mutations";
import type { Website } from "./queries";

export function DeleteWebsiteButton({ website }: { website: Website }) {
  const deleteWebsite = useDeleteWebsite();
  const { toast } = useToast();

  function confirmDelete() {
    deleteWebsite.mutate(website.id, {
      onSuccess: () =>
        toast({
          title: "Website deleted",
          description: "The website has been successfully removed.",
        }),
      onError: () =>
        toast({
          title: "Error",
          description: "Failed to delete website. Please try again.",
          variant: "destructive",
        }),
    });
  }

  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Delete ${website.name}`}
          disabled={deleteWebsite.isPending}
          className="text-destructive hover:bg-destructive/10 hover:text-destructive"
        >
          <Trash aria-hidden />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {website.name}?</AlertDialogTitle>
          <AlertDialogDescription>
            The banner on {website.domain} will stop recording consent choices.
            This action cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={confirmDelete}>Delete</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
