// Admin accounts outside the HTTP api: the first admin at start (from ADMIN_USERNAME/ADMIN_PASSWORD,
// or generated and printed once) and `consentry admin create`. A generated password goes to the
// terminal through `print`: standard error, never standard output, which is the JSON log stream that
// log collectors keep. And it is good for one sign-in only: that sign-in must choose a new password
// (must_change_password) before the session can do anything as an admin.
import { randomBytes } from 'node:crypto';
import { adminUsernamePattern, withTransaction, type Db } from '@consentry/infra';
import { adminExists, countAdmins, createAdminCredentialIfMissing, saveAdminCredential } from './credentials';
import { findPasswordWeakness } from './password-strength';
import { createPasswordHasher, maxPasswordLength, minPasswordLength, type PasswordHasher } from './passwords';

export const defaultAdminUsername = 'admin';

export interface InitialAdminOptions {
  /** ADMIN_USERNAME and ADMIN_PASSWORD; both or neither. */
  readonly username?: string;
  readonly password?: string;
  /** Where a generated password is shown (default: standard error, the terminal; never the log on stdout). */
  readonly print?: (text: string) => void;
  readonly hasher?: PasswordHasher;
}

export type InitialAdminOutcome = 'created-from-environment' | 'exists' | 'generated' | 'admins-exist';

/**
 * Makes sure an admin can sign in. With ADMIN_USERNAME/ADMIN_PASSWORD the admin is created if missing
 * (an existing admin keeps the password it has: `consentry admin create` changes it). Without them,
 * and with no admin at all, an `admin` with a generated password is created and printed once.
 */
export async function ensureInitialAdmin(pool: Db, options: InitialAdminOptions = {}): Promise<InitialAdminOutcome> {
  const hasher = options.hasher ?? createPasswordHasher();
  const print = options.print ?? ((text: string) => void process.stderr.write(text));
  if (options.username !== undefined && options.password !== undefined) {
    // Hashing costs a tenth of a second of every start; an admin that exists keeps its password anyway.
    if (await adminExists(pool, options.username)) return 'exists';
    const created = await createAdminCredentialIfMissing(pool, options.username, await hasher.hash(options.password));
    return created ? 'created-from-environment' : 'exists';
  }
  if ((await countAdmins(pool)) > 0) return 'admins-exist';
  const password = randomBytes(18).toString('base64url');
  // Two instances starting at once on an empty table: only the one whose insert wins prints.
  const created = await createAdminCredentialIfMissing(pool, defaultAdminUsername, await hasher.hash(password), { mustChangePassword: true });
  if (!created) return 'admins-exist';
  print(
    `\nCreated the first admin. Sign in at /admin/login with\n` +
      `  username: ${defaultAdminUsername}\n  password: ${password}\n` +
      `This password is shown only now, and works once: the first sign-in asks for a new one.\n` +
      `(Or set one yourself: consentry admin create --username ${defaultAdminUsername})\n\n`,
  );
  return 'generated';
}

export class AdminInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminInputError';
  }
}

/**
 * Creates an admin, or sets a new password for an existing one and ends that admin's sessions (a
 * password change locks out whoever knew the old one). Checks both like the config does.
 */
export async function saveAdmin(pool: Db, username: string, password: string, hasher: PasswordHasher = createPasswordHasher()): Promise<'created' | 'updated'> {
  if (!adminUsernamePattern.test(username)) throw new AdminInputError('The username must be 1–100 letters, digits, ., _, @ or -');
  if (password.length < minPasswordLength || password.length > maxPasswordLength) {
    throw new AdminInputError(`The password must be ${minPasswordLength} to ${maxPasswordLength} characters`);
  }
  const weakness = findPasswordWeakness(password, [username]);
  if (weakness) throw new AdminInputError(weakness);
  const passwordHash = await hasher.hash(password);
  return withTransaction(pool, async (tx) => {
    const existed = await adminExists(tx, username);
    await saveAdminCredential(tx, username, passwordHash);
    await tx.query({ name: 'session-end-admin', text: 'DELETE FROM sessions WHERE admin_username = $1', values: [username] });
    return existed ? 'updated' : 'created';
  });
}
