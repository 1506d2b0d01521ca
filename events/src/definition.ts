// How an event is defined (type name, schema version, category, zod schema of its data, upcasters
// from older versions) and the errors raised when a name or a payload does not fit the catalogue.
import type { z } from 'zod';

export const eventCategories = [
  'consent',
  'analytics',
  'website',
  'user',
  'plan',
  'branding',
  'site-content',
  'export',
  'compliance',
  'banner',
  'scan',
  'identification',
] as const;
export type EventCategory = (typeof eventCategories)[number];

/** Turns data stored at version `n` into data of version `n + 1`. Pure; never validates. */
export type EventUpcaster = (data: unknown) => unknown;

export type EventDefinition<
  TType extends string = string,
  TSchema extends z.ZodType = z.ZodType,
  TCategory extends EventCategory = EventCategory,
> = {
  readonly type: TType;
  /** The current schema version; events are stored with the version they were written at. */
  readonly version: number;
  readonly category: TCategory;
  readonly schema: TSchema;
  /** `upcasters[n]` lifts version `n` data to `n + 1`; one for every version below `version`. */
  readonly upcasters: Readonly<Record<number, EventUpcaster>>;
};

/** The `{ type, data }` shape of the event a definition describes. */
export type EventOf<TDefinition extends EventDefinition> =
  TDefinition extends EventDefinition<infer TType, infer TSchema> ? { type: TType; data: z.output<TSchema> } : never;

export function defineEvent<
  const TType extends string,
  TSchema extends z.ZodType,
  const TCategory extends EventCategory,
>(options: {
  type: TType;
  version: number;
  category: TCategory;
  schema: TSchema;
  upcasters?: Readonly<Record<number, EventUpcaster>>;
}): EventDefinition<TType, TSchema, TCategory> {
  const { type, version, category, schema, upcasters = {} } = options;
  if (!Number.isInteger(version) || version < 1) {
    throw new Error(`Event ${type}: version must be a whole number of at least 1, got ${version}`);
  }
  // An append-only log keeps events of every version it ever wrote, so every older version must have
  // a way up to the current one; a gap is a programming error caught when the module loads.
  const expectedFromVersions = Array.from({ length: version - 1 }, (_, index) => String(index + 1));
  const givenFromVersions = Object.keys(upcasters).sort((a, b) => Number(a) - Number(b));
  if (givenFromVersions.join(',') !== expectedFromVersions.join(',')) {
    throw new Error(
      `Event ${type} v${version}: expected upcasters from versions [${expectedFromVersions.join(', ')}], ` +
        `got [${givenFromVersions.join(', ')}]`,
    );
  }
  return Object.freeze({ type, version, category, schema, upcasters: Object.freeze({ ...upcasters }) });
}

/**
 * Lifts data stored at `schemaVersion` to the definition's current version by applying its upcasters
 * in order. Data already at the current version is returned as is. The result is not validated:
 * parse it with the definition's schema where it crosses a trust boundary.
 */
export function upcastToCurrentVersion(definition: EventDefinition, schemaVersion: number, data: unknown): unknown {
  if (!Number.isInteger(schemaVersion) || schemaVersion < 1 || schemaVersion > definition.version) {
    throw new UnsupportedEventVersionError(definition.type, schemaVersion, definition.version);
  }
  let current = data;
  for (let version = schemaVersion; version < definition.version; version += 1) {
    const upcaster = definition.upcasters[version];
    // defineEvent guarantees the chain is complete; this guards definitions built by hand.
    if (upcaster == null) throw new UnsupportedEventVersionError(definition.type, schemaVersion, definition.version);
    current = upcaster(current);
  }
  return current;
}

/** One failing field: `path` starts at `data` (`data.websiteId`, `data.features[2]`). */
export type EventIssue = { readonly path: string; readonly message: string };

const maxIssuesInMessage = 10;
const maxTypeNameInMessage = 100;

export class UnknownEventTypeError extends Error {
  readonly code = 'unknown_event_type';
  readonly eventType: string;

  constructor(eventType: string) {
    super(`Unknown event type: ${quoteTypeName(eventType)}`);
    this.name = 'UnknownEventTypeError';
    this.eventType = eventType;
  }
}

export class InvalidEventError extends Error {
  readonly code = 'invalid_event';
  readonly eventType: string;
  readonly issues: readonly EventIssue[];

  constructor(eventType: string, issues: readonly EventIssue[]) {
    const listed = issues.slice(0, maxIssuesInMessage).map((issue) => `${issue.path}: ${issue.message}`);
    const more = issues.length > maxIssuesInMessage ? [`and ${issues.length - maxIssuesInMessage} more`] : [];
    super(`Invalid ${eventType} event: ${[...listed, ...more].join('; ')}`);
    this.name = 'InvalidEventError';
    this.eventType = eventType;
    this.issues = issues;
  }

  static fromZodError(eventType: string, error: z.ZodError): InvalidEventError {
    return new InvalidEventError(
      eventType,
      error.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message })),
    );
  }
}

export class UnsupportedEventVersionError extends Error {
  readonly code = 'unsupported_event_version';
  readonly eventType: string;
  readonly schemaVersion: number;
  readonly currentVersion: number;

  constructor(eventType: string, schemaVersion: number, currentVersion: number) {
    super(
      `Unsupported version ${schemaVersion} of ${eventType} event: this build reads versions 1 to ${currentVersion}`,
    );
    this.name = 'UnsupportedEventVersionError';
    this.eventType = eventType;
    this.schemaVersion = schemaVersion;
    this.currentVersion = currentVersion;
  }
}

function formatIssuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, segment) => (typeof segment === 'number' ? `${text}[${segment}]` : `${text}.${String(segment)}`),
    'data',
  );
}

// Type names can come from outside (a stored row, a request), so the message shows them bounded.
function quoteTypeName(eventType: string): string {
  const shown = eventType.length > maxTypeNameInMessage ? `${eventType.slice(0, maxTypeNameInMessage)}…` : eventType;
  return JSON.stringify(shown);
}
