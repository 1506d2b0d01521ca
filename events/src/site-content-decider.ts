// The decider of the public site's content (the `site-content` stream): the editor always saves
// every field, so the last save wins, and the decision needs nothing of the stream but its version.
import { assertNever, type CommandMetadata, type StreamDecider } from './decider';
import type { SiteContent, SiteContentEvent } from './site-content';

export const siteContentStreamId = 'site-content';

export interface ChangeSiteContent {
  readonly type: 'ChangeSiteContent';
  /** changedBy: the admin's username. */
  readonly data: { readonly content: SiteContent; readonly changedBy: string };
  readonly metadata: CommandMetadata;
}

export type SiteContentCommand = ChangeSiteContent;

export function decideSiteContent(command: SiteContentCommand): SiteContentEvent[] {
  switch (command.type) {
    case 'ChangeSiteContent':
      return [{ type: 'SiteContentChanged', data: { ...command.data.content, changedBy: command.data.changedBy, changedAt: command.metadata.now } }];
    default:
      return assertNever(command.type);
  }
}

export const siteContentDecider: StreamDecider<SiteContentCommand, SiteContentEvent, null> = {
  eventTypes: [],
  decide: decideSiteContent,
  evolve: (state) => state,
  initialState: () => null,
};
