// How a consent choice is shown (spec section 4): accepted → default badge 'Accepted', declined →
// destructive badge 'Declined', anything else → secondary badge 'Unknown'; and where it was made.
import { Badge, type BadgeProps } from '../../components/ui/badge';
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

export function ConsentChoiceBadge({ choice }: { choice: string | null | undefined }) {
  return <Badge variant={getConsentChoiceVariant(choice)}>{getConsentChoiceLabel(choice)}</Badge>;
}
