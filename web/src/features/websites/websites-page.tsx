// The Websites screen (/websites, /admin/websites): every website with its status, embed snippet,
// creation date and id, plus adding and deleting; each website's name opens its page (its tabs).
// Websites belong to owner accounts: an admin sees every owner's websites and adds one for the owner
// they choose in the dialog.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowRight, Globe } from "lucide-react";
import { PageHeader } from "../../components/page-header";
import {
  EmptyState,
  ErrorState,
  LoadingState,
} from "../../components/query-state";
import { SnippetBlock } from "../../components/snippet-block";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../components/ui/card";
import { formatDateTime } from "../../lib/format";
import { buildEmbedSnippet, getProductHost } from "../../lib/snippet";
import { useSession } from "../auth/use-session";
import { AddWebsiteDialog } from "./add-website-dialog";
import { DeleteWebsiteButton } from "./delete-website-button";
import { websitesQueryOptions, type Website } from "./queries";

export function WebsiteStatusBadge({ isActive }: { isActive: boolean }) {
  return isActive ? (
    <Badge variant="success">Active</Badge>
  ) : (
    <Badge variant="secondary">Inactive</Badge>
  );
}

export function WebsitesPage() {
  const websitesQuery = useQuery(websitesQueryOptions());
  const session = useSession();
  const chooseOwner = session.admin !== null;

  return (
    <>
      <PageHeader
        title="Websites"
        description={
          chooseOwner
            ? "Every owner's websites and their consent banners."
            : "Manage your websites and their consent banners."
        }
        action={
          websitesQuery.data && websitesQuery.data.length > 0 ? (
            <AddWebsiteDialog chooseOwner={chooseOwner} />
          ) : undefined
        }
      />
      {websitesQuery.isPending ? (
        <LoadingState />
      ) : websitesQuery.isError ? (
        <ErrorState
          title="Websites could not be loaded."
          error={websitesQuery.error}
        />
      ) : websitesQuery.data.length === 0 ? (
        <Card>
          <EmptyState
            title="No websites yet"
            description="Add your first website: you get its embed code, then its page walks you through installing the banner and recording consent choices."
          >
            <AddWebsiteDialog
              triggerLabel="Add Your First Website"
              chooseOwner={chooseOwner}
            />
          </EmptyState>
        </Card>
      ) : (
        <div className="grid grid-cols-1 gap-4">
          {websitesQuery.data.map((website) => (
            <WebsiteCard key={website.id} website={website} />
          ))}
        </div>
      )}
    </>
  );
}

/** Whose website it is, in an admin's list (the api names owners only there). */
function WebsiteOwner({ owner }: { owner: NonNullable<Website["owner"]> | null }) {
  if (owner === null) return <span>Owner: account deleted</span>;
  return (
    <span className="wrap-anywhere">
      Owner: {owner.name ? `${owner.name} (${owner.email})` : owner.email}
    </span>
  );
}

function WebsiteCard({ website }: { website: Website }) {
  const titleId = `website-${website.id}-title`;
  return (
    <Card role="article" aria-labelledby={titleId} className="min-w-0">
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="flex min-w-0 items-start gap-3">
          <Globe className="mt-1 size-5 shrink-0 text-primary" aria-hidden />
          <div className="min-w-0 space-y-1">
            <CardTitle className="flex flex-wrap items-center gap-2">
              <Link
                id={titleId}
                to="/websites/$websiteId/overview"
                params={{ websiteId: website.id }}
                className="break-words underline-offset-4 hover:text-primary hover:underline"
              >
                {website.name}
              </Link>
              <WebsiteStatusBadge isActive={website.isActive} />
            </CardTitle>
            <CardDescription className="wrap-anywhere">
              {website.domain}
            </CardDescription>
          </div>
        </div>
        <DeleteWebsiteButton website={website} />
      </CardHeader>
      <CardContent className="space-y-3">
        <SnippetBlock
          label="Website body code"
          snippet={buildEmbedSnippet({
            host: getProductHost(),
            embedCode: website.embedCode,
          })}
        />
        <div className="flex flex-wrap gap-2">
          <Button asChild size="sm">
            <Link to="/websites/$websiteId/overview" params={{ websiteId: website.id }} aria-label={`Open ${website.name}`}>
              Open website
              <ArrowRight aria-hidden />
            </Link>
          </Button>
          <Button asChild size="sm" variant="outline">
            <Link to="/websites/$websiteId/installation" params={{ websiteId: website.id }} aria-label={`Install the banner on ${website.name}`}>
              Install the banner
            </Link>
          </Button>
        </div>
        <div className="flex flex-wrap gap-x-6 gap-y-1 text-xs text-muted-foreground">
          {website.owner !== undefined ? <WebsiteOwner owner={website.owner} /> : null}
          <span>Created {formatDateTime(website.createdAt)}</span>
          <span>ID: {website.id}</span>
        </div>
      </CardContent>
    </Card>
  );
}
