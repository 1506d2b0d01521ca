// The website a tab of /websites/$websiteId shows. The website page renders its tabs only once the
// website is in the viewer's list (else its not-found state), so inside a tab it is always there.
import { useQuery } from '@tanstack/react-query';
import { websitesQueryOptions, type Website } from './queries';

export function useWebsite(websiteId: string): Website {
  const websites = useQuery(websitesQueryOptions());
  const website = websites.data?.find((item) => item.id === websiteId);
  if (!website) throw new Error(`Website ${websiteId} is not loaded: its tabs render inside the website page only.`);
  return website;
}
