// What a consent request chose, in the terms of the consent event: the purposes offered and granted,
// how, and which event type that makes. A widget 1 body (only `choice`) is read as that widget's
// banner worked: Accept All over the three purposes it had, or a decline (by GPC or on the banner).
import {
  grantAll,
  grantNone,
  grantsAny,
  legacyPurposes,
  type ConsentMethod,
  type ConsentSource,
  type GrantedPurposes,
  type OptionalPurpose,
} from '@consentry/events';

export interface ChoiceRequest {
  readonly choice?: 'accepted' | 'declined' | undefined;
  readonly offered?: readonly OptionalPurpose[] | undefined;
  readonly purposes?: GrantedPurposes | undefined;
  readonly method?: ConsentMethod | undefined;
  readonly source: ConsentSource;
}

export interface RecordedChoice {
  readonly type: 'ConsentGiven' | 'ConsentDeclined';
  readonly offered: OptionalPurpose[];
  readonly purposes: GrantedPurposes;
  readonly method: ConsentMethod;
}

/** The request's choice; the schema has already checked that its parts agree. */
export function recordedChoiceOf(body: ChoiceRequest): RecordedChoice {
  if (body.purposes !== undefined) {
    return {
      type: grantsAny(body.purposes) ? 'ConsentGiven' : 'ConsentDeclined',
      offered: [...(body.offered ?? [])],
      purposes: body.purposes,
      method: body.method ?? 'custom',
    };
  }
  const accepted = body.choice === 'accepted';
  return {
    type: accepted ? 'ConsentGiven' : 'ConsentDeclined',
    offered: [...legacyPurposes],
    purposes: accepted ? grantAll(legacyPurposes) : { ...grantNone },
    method: accepted ? 'accept_all' : body.source === 'gpc' ? 'gpc' : 'reject_all',
  };
}
