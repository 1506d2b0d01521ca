// The parts a process can run (`consentry start --role …`), apart from system.ts so that the CLI and
// the cluster's primary can read them without loading the whole product (issue 35: the primary forks
// its HTTP workers before it loads anything heavy).

/** The parts a process can run; every process runs all by default. */
export const roles = ['ingest', 'api', 'projectors', 'relay', 'jobs'] as const;
export type Role = (typeof roles)[number];

/** The roles served over HTTP on PORT; the cluster runs them in its workers. */
export const httpRoles: readonly Role[] = ['ingest', 'api'];

/** Which roles `--role` asked for, checked; the embedded bus cannot be split across processes. */
export function parseRoles(value: string): Role[] {
  const asked = value.split(',').map((part) => part.trim()).filter(Boolean);
  const unknown = asked.filter((role) => !(roles as readonly string[]).includes(role));
  if (unknown.length > 0 || asked.length === 0) {
    throw new RoleError(`--role takes a comma-separated list of ${roles.join(', ')} (got ${JSON.stringify(value)})`);
  }
  return roles.filter((role) => asked.includes(role));
}

export class RoleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RoleError';
  }
}
