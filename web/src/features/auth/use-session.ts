// The signed-in session as components see it, kept current by the query cache (a logout elsewhere
// in the app updates it at once).
import { useQuery } from '@tanstack/react-query';
import { currentAdminQueryOptions, currentUserQueryOptions, type Session } from './queries';

export function useSession(): Session {
  const { data: user } = useQuery(currentUserQueryOptions());
  const { data: admin } = useQuery(currentAdminQueryOptions());
  return { user: user ?? null, admin: admin ?? null };
}
