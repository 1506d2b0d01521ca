// The decider of a branding stream (an owner's, or the installation's): a save replaces the whole
// branding, so the last save wins, and the decision needs nothing of the stream but its version.
import { assertNever, type CommandMetadata, type StreamDecider } from './decider';
import type { BrandingEvent, BrandingSettings } from './branding';

export interface ChangeBranding {
  readonly type: 'ChangeBranding';
  /** ownerId null: the installation's branding (admins). */
  readonly data: { readonly ownerId: string | null; readonly settings: BrandingSettings; readonly changedBy: string };
  readonly metadata: CommandMetadata;
}

export type BrandingCommand = ChangeBranding;

export function decideBranding(command: BrandingCommand): BrandingEvent[] {
  switch (command.type) {
    case 'ChangeBranding': {
      const { ownerId, settings, changedBy } = command.data;
      return [{ type: 'BrandingChanged', data: { ...settings, ownerId, changedBy, changedAt: command.metadata.now } }];
    }
    default:
      return assertNever(command.type);
  }
}

export const brandingDecider: StreamDecider<BrandingCommand, BrandingEvent, null> = {
  eventTypes: [],
  decide: decideBranding,
  evolve: (state) => state,
  initialState: () => null,
};
