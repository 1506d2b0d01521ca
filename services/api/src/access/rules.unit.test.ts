// The access rules, viewer by viewer: who each rule lets in, and the refusal everyone else gets.
import { describe, expect, it } from 'vitest';
import type { User } from '@consentry/projections';
import { accessRules, checkAccess, type AccessRule } from './rules';
import type { Viewer } from './viewer';

const owner = { id: 'owner-1' } as User;
const viewers: Record<string, Viewer> = {
  nobody: { user: null, adminUsername: null },
  owner: { user: owner, adminUsername: null },
  admin: { user: null, adminUsername: 'root' },
  'admin with an owner account': { user: owner, adminUsername: 'root' },
  'admin who must replace a generated password': { user: null, adminUsername: null, pendingAdminUsername: 'root' },
  'owner signed in as such an admin too': { user: owner, adminUsername: null, pendingAdminUsername: 'root' },
};

function outcome(rule: AccessRule, viewer: Viewer): string {
  try {
    checkAccess(rule, viewer);
    return 'in';
  } catch (error) {
    const { statusCode, code } = error as { statusCode: number; code: string };
    return `${statusCode} ${code}`;
  }
}

const table: Record<AccessRule, Record<string, string>> = {
  public: { nobody: 'in', owner: 'in', admin: 'in', 'admin with an owner account': 'in', 'admin who must replace a generated password': 'in', 'owner signed in as such an admin too': 'in' },
  signedIn: {
    nobody: '401 UNAUTHENTICATED',
    owner: 'in',
    admin: 'in',
    'admin with an owner account': 'in',
    'admin who must replace a generated password': '403 PASSWORD_CHANGE_REQUIRED',
    'owner signed in as such an admin too': 'in',
  },
  owner: {
    nobody: '401 UNAUTHENTICATED',
    owner: 'in',
    admin: '403 OWNER_ACCOUNT_REQUIRED',
    'admin with an owner account': 'in',
    'admin who must replace a generated password': '403 PASSWORD_CHANGE_REQUIRED',
    'owner signed in as such an admin too': 'in',
  },
  admin: {
    nobody: '401 UNAUTHENTICATED',
    owner: '403 ADMIN_REQUIRED',
    admin: 'in',
    'admin with an owner account': 'in',
    'admin who must replace a generated password': '403 PASSWORD_CHANGE_REQUIRED',
    'owner signed in as such an admin too': '403 ADMIN_REQUIRED',
  },
  ownerSession: {
    nobody: '401 UNAUTHENTICATED',
    owner: 'in',
    admin: '401 UNAUTHENTICATED',
    'admin with an owner account': 'in',
    'admin who must replace a generated password': '401 UNAUTHENTICATED',
    'owner signed in as such an admin too': 'in',
  },
  adminSession: {
    nobody: '401 UNAUTHENTICATED',
    owner: '401 UNAUTHENTICATED',
    admin: 'in',
    'admin with an owner account': 'in',
    'admin who must replace a generated password': 'in',
    'owner signed in as such an admin too': 'in',
  },
};

describe.each(Object.keys(accessRules) as AccessRule[])('the %s rule', (rule) => {
  it.each(Object.keys(viewers))('answers %s as the table says', (name) => {
    expect(outcome(rule, viewers[name]!)).toBe(table[rule][name]);
  });
});

describe('nobody signed in', () => {
  it("is told the route's own prompt, or 'Sign in to continue'", () => {
    expect(() => checkAccess('signedIn', viewers.nobody!)).toThrow('Sign in to continue');
    expect(() => checkAccess('signedIn', viewers.nobody!, 'Sign in to export data')).toThrow('Sign in to export data');
  });
});
