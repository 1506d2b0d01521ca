// Password hashing with argon2id (@node-rs/argon2: prebuilt binaries, no install scripts). The
// defaults are OWASP's minimum for argon2id (19 MiB, 2 passes); tests may lower them.
import { hash, verify } from '@node-rs/argon2';
import { z } from 'zod';

export interface PasswordHashing {
  /** Memory in KiB. */
  readonly memoryCost: number;
  readonly timeCost: number;
}

export const defaultPasswordHashing: PasswordHashing = { memoryCost: 19_456, timeCost: 2 };

export const minPasswordLength = 8;
export const maxPasswordLength = 128;

/** A new password: 8 to 128 characters (the upper bound keeps hashing cost bounded). */
export const newPassword = z
  .string()
  .min(minPasswordLength, { error: `Password must be at least ${minPasswordLength} characters` })
  .max(maxPasswordLength, { error: `Password must be at most ${maxPasswordLength} characters` });

/** A password offered at sign-in: bounded, but never told which rule it breaks. */
export const offeredPassword = z.string().min(1).max(maxPasswordLength * 4);

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password or a malformed hash; never throws for either. */
  verify(passwordHash: string, password: string): Promise<boolean>;
  /**
   * Spends the time of one verification when there is no account to check against, so a sign-in
   * for an unknown email takes as long as one with a wrong password.
   */
  verifyNothing(password: string): Promise<false>;
}

export function createPasswordHasher(options: PasswordHashing = defaultPasswordHashing): PasswordHasher {
  const hashOptions = { memoryCost: options.memoryCost, timeCost: options.timeCost };
  let decoy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, hashOptions),
    async verify(passwordHash, password) {
      try {
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    },
    async verifyNothing(password) {
      decoy ??= hash('decoy password that matches nothing', hashOptions);
      await verify(await decoy, password).catch(() => false);
      return false;
    },
  };
}
