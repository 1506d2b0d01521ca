// The badges of a lead's consent status ('Allowed' / 'Withdrawn') and enrichment status, the same on
// the list and on a lead's page.
import { Badge } from '../../components/ui/badge';
import { consentStatusLabels, enrichmentOffLabel, enrichmentStatusLabels } from './labels';
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

/** `enrichmentOn` false: the server has no provider, so a pending enrichment reads 'Enrichment off'. */
export function EnrichmentStatusBadge({ status, enrichmentOn = true }: { status: EnrichmentStatus; enrichmentOn?: boolean }) {
  if (status === 'pending' && !enrichmentOn) {
    return (
      <Badge variant="outline" title="This server has no enrichment provider (ENRICHMENT_PROVIDER); an admin can set one">
        {enrichmentOffLabel}
      </Badge>
    );
  }
  return <Badge variant={enrichmentVariants[status]}>{enrichmentStatusLabels[status]}</Badge>;
}
