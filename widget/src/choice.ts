// The visitor's remembered choice and visitor id, both in first-party localStorage (no cookies): the
// choice is kept per embed code together with the policy version it was given for, so a new policy
// version asks again and nothing else does.

import { createUuid, UUID_PATTERN } from './ids';
import { KEY_PREFIX, readJson, writeJson } from './storage';

export const ACCEPTED = 'accepted';
export const DECLINED = 'declined';
export type Choice = typeof ACCEPTED | typeof DECLINED;
export type Source = 'banner' | 'gpc' | 'reopened';

export interface StoredChoice {
  choice: Choice;
  policyVersion: string;
  /** ISO time of the decision, the consent event's occurredAt. */
  decidedAt: string;
}

/** What to do once the config is known: apply a remembered choice, decline for GPC, or ask. */
export type LoadDecision = Choice | 'gpc' | 'ask';

export const choiceKey = (embedCode: string): string => KEY_PREFIX + 'choice:' + embedCode;
export const VISITOR_KEY = KEY_PREFIX + 'visitor';

/** The stored choice for `embedCode`, or null when there is none or it is malformed. */
export function readStoredChoice(embedCode: string): StoredChoice | null {
  const v = readJson(choiceKey(embedCode)) as StoredChoice | null | undefined;
  return v && (v.choice === ACCEPTED || v.choice === DECLINED) && typeof v.policyVersion === 'string' ? v : null;
}

export function writeStoredChoice(embedCode: string, stored: StoredChoice): void {
  writeJson(choiceKey(embedCode), stored);
}

/**
 * A remembered choice counts only for the policy version it was given for. Without one, Global
 * Privacy Control is a valid "no" (CCPA treats it as an opt-out request), so it is recorded instead of
 * asking; otherwise the banner asks.
 */
export function decideOnLoad(stored: StoredChoice | null, policyVersion: string, gpc: boolean): LoadDecision {
  if (stored && stored.policyVersion === policyVersion) return stored.choice;
  return gpc ? 'gpc' : 'ask';
}

/** The visitor id, created and kept on first use (only a consent decision needs one). */
export function getVisitorId(): string {
  const stored = readJson(VISITOR_KEY);
  if (typeof stored === 'string' && UUID_PATTERN.test(stored)) return stored;
  const id = createUuid();
  writeJson(VISITOR_KEY, id);
  return id;
}
