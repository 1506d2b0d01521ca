// The badges of a lead's consent status ('Allowed' / 'Withdrawn') and enrichment status, the same on
// the list and on a lead's page.
import { Badge } from '../../components/ui/badge';
import { consentStatusLabels, enrichmentStatusLabels } from './labels';
import type { EnrichmentStatus, LeadConsentStatus } from './queries';

export function ConsentStatusBadge({ status }: { status: LeadConsentStatus }) {
  return <Badge variant={status === 'granted' ? 'success' : 'destructive'}>{consentStatusLabels[status]}</Badge>;
}

const enrichmentVariants: Record<EnrichmentStatus, 'success' | 'warning' | 'secondary' | 'outline'> = {
  none: 'outline',
  pending: 'warning',
  enriched: 'success',
  failed: 'secondary',
};

export function EnrichmentStatusBadge({ status }: { status: EnrichmentStatus }) {
  return <Badge variant={enrichmentVariants[status]}>{enrichmentStatusLabels[status]}</Badge>;
}
