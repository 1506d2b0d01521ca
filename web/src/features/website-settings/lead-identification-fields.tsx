// The "Lead identification" part of the website settings form (docs/identification.md): one switch
// that makes the banner offer the identification purpose (the only way to turn it on: the purposes
// checklist does not offer it on its own), which forms the widget reads an email from once a visitor
// allowed it, how a site with its own sign-in identifies a visitor, and the monthly resolution cap
// that protects the owner's bill. The form owns the state.
import { useEffect, useId } from 'react';
import { SnippetBlock } from '../../components/snippet-block';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Switch } from '../../components/ui/switch';
import { identificationFormLabels, identificationFormModes, type IdentificationForms } from './validation';

/** The call a site with its own sign-in makes; the widget ignores it unless the visitor allowed identification. */
export const identifyCallSample = `<script>
  // Once your own sign-in knows who the visitor is:
  window.Consentry?.identify('ada@example.com', { name: 'Ada Lovelace', company: 'Example Ltd' });
</script>`;

export function LeadIdentificationFields({
  id,
  enabled,
  forms,
  savedEnabled,
  onEnabledChange,
  onFormsChange,
  resolutionCap,
  resolutionCapProblem,
  onResolutionCapChange,
}: {
  /** The section's heading id, the target of links to it (`#lead-identification`). */
  id: string;
  enabled: boolean;
  forms: IdentificationForms;
  /** Whether it is on in the saved settings: a change asks every visitor again. */
  savedEnabled: boolean;
  onEnabledChange: (enabled: boolean) => void;
  onFormsChange: (forms: IdentificationForms) => void;
  /** The monthly resolution cap as typed (empty: unlimited), and what is wrong with it. */
  resolutionCap: string;
  resolutionCapProblem: string | null;
  onResolutionCapChange: (cap: string) => void;
}) {
  const fieldId = useId();
  // A link to the section (the Leads screen's empty state) arrives before the settings load: scroll
  // once they did and the section exists.
  useEffect(() => {
    if (window.location.hash === `#${id}`) document.getElementById(id)?.scrollIntoView({ block: 'start' });
  }, [id]);
  const switchId = `${fieldId}-switch`;
  const hintId = `${fieldId}-hint`;
  const capId = `${fieldId}-cap`;
  const capHintId = `${fieldId}-cap-hint`;
  return (
    // scroll-mt: below the app's header and the settings' sticky section index.
    <section aria-labelledby={id} className="scroll-mt-32 space-y-4 rounded-md border p-4">
      <h4 id={id} className="text-base font-semibold">
        Lead identification
      </h4>
      <div className="flex items-start justify-between gap-4">
        <div className="space-y-1">
          <Label htmlFor={switchId}>Identify visitors who allow it</Label>
          <p id={hintId} className="text-xs text-muted-foreground">
            On: the banner asks visitors whether they allow identification, as a purpose of its own. Only visitors who allow it are identified —
            from the forms they send, your site&apos;s call below and, on Pro and Business plans, their company&apos;s network — and enriched
            with business contact details.
          </p>
        </div>
        <Switch id={switchId} checked={enabled} aria-describedby={hintId} onCheckedChange={onEnabledChange} />
      </div>
      {enabled !== savedEnabled ? (
        <p role="status" className="rounded-md border border-yellow-300 bg-yellow-50 p-3 text-xs text-yellow-900">
          {enabled
            ? 'Saving adds identification to the purposes the banner asks for, so every visitor is asked again.'
            : 'Saving removes identification from the banner, so every visitor is asked again and nobody is identified from then on.'}
        </p>
      ) : null}

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Forms that identify a visitor</legend>
        <p className="text-xs text-muted-foreground">
          Read only once the visitor allowed identification, and only the email, name and company fields. Password fields are never read.
        </p>
        {identificationFormModes.map((mode) => {
          const radioId = `${fieldId}-forms-${mode}`;
          return (
            <div key={mode} className="flex items-start gap-3">
              <input
                type="radio"
                id={radioId}
                name={`${fieldId}-forms`}
                value={mode}
                checked={forms === mode}
                onChange={() => onFormsChange(mode)}
                className="mt-0.5 size-4 shrink-0 cursor-pointer accent-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              />
              <Label htmlFor={radioId} className="leading-snug font-normal">
                {identificationFormLabels[mode]}
              </Label>
            </div>
          );
        })}
      </fieldset>

      <div className="space-y-1">
        <Label htmlFor={capId}>Monthly resolution cap</Label>
        <Input
          id={capId}
          data-settings-field="monthlyResolutionCap"
          inputMode="numeric"
          className="max-w-48"
          placeholder="No limit"
          value={resolutionCap}
          aria-invalid={resolutionCapProblem !== null}
          aria-describedby={capHintId}
          onChange={(event) => onResolutionCapChange(event.target.value)}
        />
        <p id={capHintId} className={resolutionCapProblem ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
          {resolutionCapProblem ??
            'The most resolutions you pay for in a month: each person first identified on this site that month counts once. Once reached, only people already identified this month are identified until the month ends. You are alerted from 80 %. Empty: no limit.'}
        </p>
      </div>

      <div className="space-y-2">
        <SnippetBlock
          label="Identify signed-in visitors"
          snippet={identifyCallSample}
          copiedDescription="The identify call was copied to the clipboard."
        />
        <p className="text-xs text-muted-foreground">
          For sites with their own sign-in: <code className="font-mono">Consentry.identify(email, {'{ name, company }'})</code> does nothing unless
          the visitor allowed identification.
        </p>
      </div>
    </section>
  );
}
