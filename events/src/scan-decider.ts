// The deciders of scans: a scan's own stream (`scan-<id>`), queued by an owner's request, and a
// website's assignments stream (what a cookie is for). One scan of a website waits or runs at a time,
// a fact of other streams: the request carries it as read (the read model refuses a racing second).
import { DecisionError, assertNever, type CommandMetadata, type StreamDecider } from './decider';
import type { ItemPurposeAssigned, ScannedPurpose, ScanCompleted, ScanFailed, ScanRequested, StorageKind } from './scan';

export interface RequestScan {
  readonly type: 'RequestScan';
  readonly data: {
    readonly scanId: string;
    readonly websiteId: string;
    /** The owner's user id or the admin's username. */
    readonly requestedBy: string;
    readonly maxPages: number;
    /** Whether a scan of the website waits or runs now. */
    readonly websiteHasOpenScan: boolean;
  };
  readonly metadata: CommandMetadata;
}

export type ScanCommand = RequestScan;
export type ScanStreamEvent = ScanRequested | ScanCompleted | ScanFailed;

export type ScanState = { readonly status: 'absent' } | { readonly status: 'open' } | { readonly status: 'finished' };

export class ScanInProgressError extends DecisionError {
  constructor() {
    super('SCAN_IN_PROGRESS', 'conflict', 'A scan of this website is already waiting or running');
  }
}

export class ScanAlreadyRequestedError extends DecisionError {
  constructor() {
    super('SCAN_EXISTS', 'conflict', 'A scan with this id was already requested');
  }
}

export function decideScan(command: ScanCommand, state: ScanState): ScanStreamEvent[] {
  switch (command.type) {
    case 'RequestScan': {
      if (state.status !== 'absent') throw new ScanAlreadyRequestedError();
      const { scanId, websiteId, requestedBy, maxPages, websiteHasOpenScan } = command.data;
      if (websiteHasOpenScan) throw new ScanInProgressError();
      return [{ type: 'ScanRequested', data: { scanId, websiteId, trigger: 'owner', requestedBy, maxPages, requestedAt: command.metadata.now } }];
    }
    default:
      return assertNever(command.type);
  }
}

export function evolveScan(state: ScanState, event: ScanStreamEvent): ScanState {
  switch (event.type) {
    case 'ScanRequested':
      return { status: 'open' };
    case 'ScanCompleted':
    case 'ScanFailed':
      return { status: 'finished' };
    default:
      return assertNever(event);
  }
}

export const scanDecider: StreamDecider<ScanCommand, ScanStreamEvent, ScanState> = {
  eventTypes: ['ScanRequested', 'ScanCompleted', 'ScanFailed'],
  decide: decideScan,
  evolve: evolveScan,
  initialState: () => ({ status: 'absent' }),
};

export interface AssignItemPurpose {
  readonly type: 'AssignItemPurpose';
  readonly data: {
    readonly websiteId: string;
    readonly kind: StorageKind;
    readonly name: string;
    /** null hands the item back to the Open Cookie Database (or Unclassified). */
    readonly purpose: ScannedPurpose | null;
    readonly assignedBy: string;
  };
  readonly metadata: CommandMetadata;
}

export type ItemPurposeCommand = AssignItemPurpose;

export function decideItemPurpose(command: ItemPurposeCommand): ItemPurposeAssigned[] {
  switch (command.type) {
    case 'AssignItemPurpose':
      return [{ type: 'ItemPurposeAssigned', data: { ...command.data, assignedAt: command.metadata.now } }];
    default:
      return assertNever(command.type);
  }
}

/** The owner's latest word on an item wins: the decision needs nothing of the stream but its version. */
export const itemPurposeDecider: StreamDecider<ItemPurposeCommand, ItemPurposeAssigned, null> = {
  eventTypes: [],
  decide: decideItemPurpose,
  evolve: (state) => state,
  initialState: () => null,
};
