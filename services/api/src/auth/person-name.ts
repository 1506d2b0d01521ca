// A name an owner gives themselves (registration, invitation, Account page): optional, trimmed, at
// most 100 characters, and never only spaces (a name that shows as nothing is refused, not kept).
// Left empty, it is null.
import { z } from 'zod';

export const maxPersonNameLength = 100;

export const personName = (label: string) =>
  z
    .string()
    .refine((name) => name === '' || name.trim() !== '', { error: `${label} cannot be only spaces: type a name or leave it empty` })
    .transform((name) => name.trim())
    .pipe(z.string().max(maxPersonNameLength, { error: `${label} must be at most ${maxPersonNameLength} characters` }))
    .optional()
    .transform((name) => (name ? name : null));
