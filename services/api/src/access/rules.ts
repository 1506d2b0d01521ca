// The access rules: every api route names one (`config: { access }`), and this is the one place that
// says what each lets in. Refusals use the api's error texts (errors.ts); a rule only answers who is
// asking, never whether a website or lead is theirs: routes check each resource (websites.ts).
import { ApiError, adminRequired, notSignedIn } from '../errors';
import type { Viewer } from './viewer';

export const accessRules = {
  public: 'Anyone, signed in or not',
  signedIn: 'A signed-in owner or admin (nobody: 401)',
  owner: 'A signed-in owner account (an admin without one: 403 OWNER_ACCOUNT_REQUIRED)',
  admin: 'A signed-in admin (an owner: 403 ADMIN_REQUIRED)',
  ownerSession: "The session's owner sign-in; an admin-only session reads as nobody (401)",
  adminSession: "The session's admin sign-in, also one who must still replace a generated password (401 otherwise)",
} as const;

export type AccessRule = keyof typeof accessRules;

export const isAccessRule = (value: unknown): value is AccessRule => typeof value === 'string' && Object.hasOwn(accessRules, value);

export const passwordChangeRequired = () =>
  new ApiError(403, 'PASSWORD_CHANGE_REQUIRED', 'Choose a new password before going on: the one you signed in with was generated for the first sign-in');

export const ownerAccountRequired = () => new ApiError(403, 'OWNER_ACCOUNT_REQUIRED', 'This needs a website owner account; admins manage owners from User Management');

/**
 * Throws the refusal of `viewer` under `rule`, or returns when they may call the route. `signInPrompt`
 * is the route's own 401 message for nobody (the default: 'Sign in to continue').
 */
export function checkAccess(rule: AccessRule, viewer: Viewer, signInPrompt?: string): void {
  switch (rule) {
    case 'public':
      return;
    case 'ownerSession':
      if (!viewer.user) throw notSignedIn(signInPrompt);
      return;
    case 'adminSession':
      if (!viewer.adminUsername && !viewer.pendingAdminUsername) throw notSignedIn(signInPrompt);
      return;
    case 'signedIn':
    case 'owner':
    case 'admin':
      if (!viewer.user && !viewer.adminUsername) throw viewer.pendingAdminUsername ? passwordChangeRequired() : notSignedIn(signInPrompt);
      if (rule === 'owner' && !viewer.user) throw ownerAccountRequired();
      if (rule === 'admin' && !viewer.adminUsername) throw adminRequired();
      return;
    default: {
      const unknown: never = rule;
      throw new Error(`Unknown access rule ${String(unknown)}`);
    }
  }
}
