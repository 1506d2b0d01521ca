// Whose data a request may see. The accounts layer resolves the signed-in principal; features ask
// for the scope and check every resource against it (an owner's websites, or all for an admin).

export interface OwnerScope {
  /** The signed-in owner; null for an admin session. */
  readonly userId: string | null;
  readonly isAdmin: boolean;
  /** The signed-in admin's username (who an admin's actions are recorded as); null for an owner. */
  readonly adminUsername: string | null;
  /** The websites this principal may see; null means every website (admins). */
  readonly websiteIds: readonly string[] | null;
}

/**
 * Resolves the scope of a request, or null when nobody is signed in (401). Within one request the
 * answer is cached; `fresh` reads the session and accounts again (a long-lived request such as an
 * event stream uses it to notice a sign-out, a deleted account or a new website).
 */
export type ResolveScope = (request: import('fastify').FastifyRequest, options?: { readonly fresh?: boolean }) => Promise<OwnerScope | null>;

export function canSeeWebsite(scope: OwnerScope, websiteId: string): boolean {
  return scope.websiteIds === null || scope.websiteIds.includes(websiteId);
}
