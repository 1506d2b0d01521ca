// The credential tables: owners' email and password hash (user_credentials) and admins' username and
// password hash (admin_credentials). Plain rows: secrets are not history.
import type { Queryable } from '@consentry/infra';

export interface UserCredential {
  readonly userId: string;
  readonly email: string;
  /** null: invited, not registered yet. */
  readonly passwordHash: string | null;
}

export async function findUserCredentialByEmail(db: Queryable, email: string): Promise<UserCredential | null> {
  const { rows } = await db.query<{ user_id: string; email: string; password_hash: string | null }>({
    name: 'find-user-credential',
    text: 'SELECT user_id, email, password_hash FROM user_credentials WHERE email = $1',
    values: [email],
  });
  const row = rows[0];
  return row ? { userId: row.user_id, email: row.email, passwordHash: row.password_hash } : null;
}

export async function findAdminPasswordHash(db: Queryable, username: string): Promise<string | null> {
  const { rows } = await db.query<{ password_hash: string }>({
    name: 'find-admin-credential',
    text: 'SELECT password_hash FROM admin_credentials WHERE username = $1',
    values: [username],
  });
  return rows[0]?.password_hash ?? null;
}

/** An admin's account state: null when there is no such admin. */
export async function findAdminStatus(db: Queryable, username: string): Promise<{ readonly mustChangePassword: boolean } | null> {
  const { rows } = await db.query<{ must_change_password: boolean }>({
    name: 'find-admin-status',
    text: 'SELECT must_change_password FROM admin_credentials WHERE username = $1',
    values: [username],
  });
  const row = rows[0];
  return row ? { mustChangePassword: row.must_change_password } : null;
}

export async function adminExists(db: Queryable, username: string): Promise<boolean> {
  const { rows } = await db.query({ name: 'admin-exists', text: 'SELECT 1 FROM admin_credentials WHERE username = $1', values: [username] });
  return rows.length > 0;
}

export async function countAdmins(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ count: number }>({ name: 'count-admins', text: 'SELECT count(*)::int8 AS count FROM admin_credentials' });
  return rows[0]?.count ?? 0;
}

/** Creates the admin, or sets a new password for an existing one (a password someone chose: no change required). */
export async function saveAdminCredential(db: Queryable, username: string, passwordHash: string): Promise<void> {
  await db.query({
    name: 'save-admin-credential',
    text: `INSERT INTO admin_credentials (username, password_hash) VALUES ($1, $2)
           ON CONFLICT (username) DO UPDATE SET password_hash = $2, must_change_password = false, updated_at = now()`,
    values: [username, passwordHash],
  });
}

/**
 * Creates the admin only if the username is free; true when it was created. A generated password is
 * created with mustChangePassword: its first sign-in has to replace it.
 */
export async function createAdminCredentialIfMissing(
  db: Queryable,
  username: string,
  passwordHash: string,
  options: { readonly mustChangePassword?: boolean } = {},
): Promise<boolean> {
  const result = await db.query({
    name: 'create-admin-credential',
    text: 'INSERT INTO admin_credentials (username, password_hash, must_change_password) VALUES ($1, $2, $3) ON CONFLICT (username) DO NOTHING',
    values: [username, passwordHash, options.mustChangePassword ?? false],
  });
  return (result.rowCount ?? 0) > 0;
}

/** An owner's password hash by account; null when there is none (invited, or no such account). */
export async function findUserPasswordHash(db: Queryable, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ password_hash: string | null }>({
    name: 'find-user-password-hash',
    text: 'SELECT password_hash FROM user_credentials WHERE user_id = $1',
    values: [userId],
  });
  return rows[0]?.password_hash ?? null;
}

/** Replaces a registered owner's password hash; false when the account has no password to replace. */
export async function replaceUserPasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<boolean> {
  const result = await db.query({
    name: 'replace-user-password-hash',
    text: 'UPDATE user_credentials SET password_hash = $2, updated_at = now() WHERE user_id = $1 AND password_hash IS NOT NULL',
    values: [userId, passwordHash],
  });
  return (result.rowCount ?? 0) > 0;
}
