// The empty state of the screens that need a website first: says why, and links to Websites.
import { Link } from "@tanstack/react-router";
import { EmptyState } from "../../components/query-state";
import { Button } from "../../components/ui/button";
import { useSession } from "../auth/use-session";
import { getWebsitesPath } from "./redirects";

export function NoWebsites({
  title = "No websites added yet",
  description,
}: {
  title?: string;
  description: string;
}) {
  const session = useSession();
  return (
    <EmptyState title={title} description={description}>
      <Button asChild variant="outline">
        <Link to={getWebsitesPath(session)}>
          Go to Websites
        </Link>
      </Button>
    </EmptyState>
  );
}
