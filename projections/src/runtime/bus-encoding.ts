// How committed events travel on the bus: one message per event, id = event id (the bus's
// deduplication key), subject `${prefix}.${category}.${type}` so consumers can filter by family.
import { categoryOf, isEventType, type EventType } from '@consentry/events';
import { atCurrentVersion, type DeliveredMessage, type OutgoingMessage, type StoredEvent } from '@consentry/infra';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function subjectOf(prefix: string, type: string): string {
  return `${prefix}.${isEventType(type) ? categoryOf(type) : 'unknown'}.${type}`;
}

export function toBusMessage(prefix: string, event: StoredEvent): OutgoingMessage {
  return { subject: subjectOf(prefix, event.type), id: event.eventId, data: encoder.encode(JSON.stringify(event)) };
}

/** A message published by an older build may carry an older schema version: it is lifted too. */
export function fromBusMessage(message: DeliveredMessage): StoredEvent {
  return atCurrentVersion(JSON.parse(decoder.decode(message.data)) as StoredEvent);
}

/** The narrowest subject filter that still covers every type a projection handles. */
export function filterSubjectFor(prefix: string, types: readonly EventType[]): string {
  const categories = new Set(types.map(categoryOf));
  const [only] = categories;
  return categories.size === 1 && only !== undefined ? `${prefix}.${only}.>` : `${prefix}.>`;
}
