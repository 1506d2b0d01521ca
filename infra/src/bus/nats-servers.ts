// NATS_URL's servers, apart from the NATS adapters so that reading them loads no NATS client.

/**
 * The server URLs of a NATS_URL-style value: one URL, or several separated by commas (blanks
 * around them ignored), or a list of those.
 */
export function parseNatsServers(url: string | readonly string[]): string[] {
  const parts = typeof url === 'string' ? [url] : url;
  const servers = parts.flatMap((part) => part.split(',')).map((part) => part.trim()).filter((part) => part !== '');
  if (servers.length === 0) throw new Error('no NATS server URL given');
  return servers;
}
