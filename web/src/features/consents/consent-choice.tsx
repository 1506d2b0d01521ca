// How a consent choice is shown (spec section 4): accepted → default badge 'Accepted', declined →
// destructive badge 'Declined', anything else → secondary badge 'Unknown'; and where it was made.
// A customized choice that grants some but not all of the purposes the banner asked for is
// 'Partial', followed by the purposes granted ('Partial · Preferences, Analytics').
import { Badge, type BadgeProps } from '../../components/ui/badge';
import { cn } from '../../lib/cn';
import { formatPurposeList } from '../../lib/purposes';
import type { ConsentRecord } from './queries';

export function formatLocation(record: Pick<ConsentRecord, 'city' | 'country'>): string {
  return [record.city, record.country].filter(Boolean).join(', ') || 'Unknown';
}

export function getConsentChoiceLabel(choice: string | null | undefined): 'Accepted' | 'Declined' | 'Unknown' {
  if (choice === 'accepted') return 'Accepted';
  if (choice === 'declined') return 'Declined';
  return 'Unknown';
}

function getConsentChoiceVariant(choice: string | null | undefined): BadgeProps['variant'] {
  if (choice === 'accepted') return 'default';
  if (choice === 'declined') return 'destructive';
  return 'secondary';
}

type ChoiceOfRecord = Pick<ConsentRecord, 'consentChoice' | 'method' | 'offeredPurposes' | 'grantedPurposes'>;

/**
 * The purposes a partial consent granted, or null when the record is not one: only a customized
 * choice (Accept All, Reject All, GPC and a regional default show as Accepted or Declined, as before)
 * that was recorded as accepted and left at least one offered purpose out.
 */
export function getPartiallyGrantedPurposes(record: ChoiceOfRecord): string[] | null {
  if (record.method !== 'custom' || record.consentChoice !== 'accepted') return null;
  const offered = new Set(record.offeredPurposes ?? []);
  const granted = (record.grantedPurposes ?? []).filter((purpose) => offered.has(purpose));
  if (granted.length === 0 || granted.length >= offered.size) return null;
  return granted;
}

/** The Consent column as text: 'Accepted', 'Declined', 'Unknown' or 'Partial · Analytics, Marketing'. */
export function getConsentLabel(record: ChoiceOfRecord): string {
  const partial = getPartiallyGrantedPurposes(record);
  return partial ? `Partial · ${formatPurposeList(partial)}` : getConsentChoiceLabel(record.consentChoice);
}

export function ConsentChoiceBadge({ choice }: { choice: string | null | undefined }) {
  return <Badge variant={getConsentChoiceVariant(choice)}>{getConsentChoiceLabel(choice)}</Badge>;
}

/** A record's choice: its badge, and for a partial consent the purposes granted beside it. */
export function ConsentRecordChoice({ record, className }: { record: ChoiceOfRecord; className?: string }) {
  const partial = getPartiallyGrantedPurposes(record);
  if (!partial) return <ConsentChoiceBadge choice={record.consentChoice} />;
  return (
    <span className={cn('inline-flex flex-wrap items-center gap-x-1.5 gap-y-1', className)}>
      <Badge variant="outline">Partial</Badge>{' '}
      <span className="text-xs text-muted-foreground">· {formatPurposeList(partial)}</span>
    </span>
  );
}
