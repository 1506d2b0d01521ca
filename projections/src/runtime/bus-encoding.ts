// How committed events travel on the bus: one message per event, id = event id (the bus's
// deduplication key), subject `${prefix}.${category}.${type}.p${partition}` so consumers can filter
// by family and a partitioned projector by partition (partitions.ts). With one partition every
// event's last token is `p0`.
import { categoryOf, isEventType, type EventType } from '@consentry/events';
import { atCurrentVersion, type DeliveredMessage, type OutgoingMessage, type StoredEvent } from '@consentry/infra';
import { partitionOfEvent, partitionToken, type Partition } from './partitions';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function subjectOf(prefix: string, type: string, partition = 0): string {
  return `${prefix}.${isEventType(type) ? categoryOf(type) : 'unknown'}.${type}.${partitionToken(partition)}`;
}

/**
 * `partitions`: PROJECTOR_PARTITIONS, which every relay and projector of an installation shares.
 * The event (read from the log, so at its current version) travels as JSON and, for consumers in
 * the same process (the in-memory bus, which freezes it), as itself, its JSON then never made.
 */
export function toBusMessage(prefix: string, event: StoredEvent, partitions = 1): OutgoingMessage {
  let data: Uint8Array | undefined;
  return {
    subject: subjectOf(prefix, event.type, partitionOfEvent(event, partitions)),
    id: event.eventId,
    // Encoded when a bus reads it: NATS does for every message; the in-memory bus only when a
    // consumer asks for the bytes rather than the value (with the bus's copy of them, ~9% of the
    // primary's CPU profile under bench:e2e).
    get data() {
      return (data ??= encoder.encode(JSON.stringify(event)));
    },
    value: event,
  };
}

/** A message published by an older build may carry an older schema version: it is lifted too. */
export function fromBusMessage(message: DeliveredMessage): StoredEvent {
  if (message.value !== undefined) return message.value as StoredEvent;
  return atCurrentVersion(JSON.parse(decoder.decode(message.data)) as StoredEvent);
}

/**
 * The narrowest subject filter that still covers every type a projection handles, in one partition
 * when the projection is split (a whole projection also reads subjects of older builds, which had
 * no partition token).
 */
export function filterSubjectFor(prefix: string, types: readonly EventType[], partition?: Partition): string {
  const categories = new Set(types.map(categoryOf));
  const [only] = categories;
  const category = categories.size === 1 && only !== undefined ? only : undefined;
  if (partition && partition.count > 1) return `${prefix}.${category ?? '*'}.*.${partitionToken(partition.index)}`;
  return category ? `${prefix}.${category}.>` : `${prefix}.>`;
}
