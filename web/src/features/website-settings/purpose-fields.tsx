// The consent-purpose parts of the website settings form: which optional purposes the banner asks for
// (a checkbox each, at least one; Necessary is always on; Identification shown but switched under
// Lead identification only) and the services and cookies it lists under them (rows to add and
// remove). The form owns the state; these draw it and report changes.
import { Plus, Trash2 } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { cn } from '../../lib/cn';
import { optionalPurposes, purposeDescriptions, purposeLabels, sortPurposes, type OptionalPurpose } from '../../lib/purposes';
import type { PurposeService } from './queries';
import {
  checkCookieNames,
  checkServiceDescription,
  checkServiceName,
  formatCookieNames,
  maxServiceDescriptionLength,
  maxServiceNameLength,
  maxServices,
  type Checked,
} from './validation';

/** The purposes an owner ticks here; identification is switched under Lead identification only. */
export const checklistPurposes = optionalPurposes.filter((purpose) => purpose !== 'identification');

export function PurposeCheckboxes({
  value,
  identification,
  problem,
  onChange,
}: {
  /** The purposes ticked here (identification is never among them). */
  value: readonly OptionalPurpose[];
  /** Whether Lead identification is on: shown, not changed, here. */
  identification: boolean;
  problem: string | null;
  onChange: (purposes: OptionalPurpose[]) => void;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <fieldset className="space-y-3" aria-describedby={hintId}>
      <legend className="text-sm font-medium">Consent purposes</legend>
      <p id={hintId} className={problem ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
        {problem ?? 'The banner asks for each purpose checked, one choice each. Changing them asks every visitor again.'}
      </p>
      <ul className="space-y-3">
        <li className="flex items-start gap-3">
          <Checkbox id={`${id}-necessary`} className="mt-0.5" checked disabled aria-describedby={`${id}-necessary-hint`} />
          <div className="space-y-1">
            <Label htmlFor={`${id}-necessary`}>Necessary</Label>
            <p id={`${id}-necessary-hint`} className="text-xs text-muted-foreground">
              Always on: what keeps the site working, such as security and remembering the choice.
            </p>
          </div>
        </li>
        {checklistPurposes.map((purpose, index) => {
          const checkboxId = `${id}-${purpose}`;
          return (
            <li key={purpose} className="flex items-start gap-3">
              <Checkbox
                id={checkboxId}
                // The save bar's link to "Consent purposes" focuses the first purpose to tick.
                data-settings-field={index === 0 ? 'purposes' : undefined}
                className="mt-0.5"
                checked={value.includes(purpose)}
                aria-invalid={problem !== null}
                aria-describedby={`${checkboxId}-hint`}
                onChange={(event) =>
                  onChange(sortPurposes(event.target.checked ? [...value, purpose] : value.filter((item) => item !== purpose)))
                }
              />
              <div className="space-y-1">
                <Label htmlFor={checkboxId}>{purposeLabels[purpose]}</Label>
                <p id={`${checkboxId}-hint`} className="text-xs text-muted-foreground">
                  {purposeDescriptions[purpose]}
                </p>
              </div>
            </li>
          );
        })}
        <li className="flex items-start gap-3">
          <Checkbox
            id={`${id}-identification`}
            className="mt-0.5"
            checked={identification}
            disabled
            aria-describedby={`${id}-identification-hint`}
          />
          <div className="space-y-1">
            <Label htmlFor={`${id}-identification`}>{purposeLabels.identification}</Label>
            <p id={`${id}-identification-hint`} className="text-xs text-muted-foreground">
              {purposeDescriptions.identification} Asked when Lead identification is on (below), never on its own.
            </p>
          </div>
        </li>
      </ul>
    </fieldset>
  );
}

/** A service row as edited: the cookie names as typed (comma-separated); `key` tells rows apart. */
export interface ServiceDraft {
  key: number;
  purpose: OptionalPurpose;
  name: string;
  description: string;
  cookies: string;
}

export function toServiceDrafts(services: readonly PurposeService[], firstKey = 0): ServiceDraft[] {
  return services.map((service, index) => ({
    key: firstKey + index,
    purpose: service.purpose,
    name: service.name,
    description: service.description,
    cookies: formatCookieNames(service.cookies),
  }));
}

interface CheckedDraft {
  name: Checked<string>;
  description: Checked<string>;
  cookies: Checked<string[]>;
}

export function checkServiceDraft(draft: ServiceDraft): CheckedDraft {
  return { name: checkServiceName(draft.name), description: checkServiceDescription(draft.description), cookies: checkCookieNames(draft.cookies) };
}

/** The services as the api takes them, or null while a row is invalid. */
export function toServices(drafts: readonly ServiceDraft[]): PurposeService[] | null {
  const services: PurposeService[] = [];
  for (const draft of drafts) {
    const checked = checkServiceDraft(draft);
    if (!checked.name.ok || !checked.description.ok || !checked.cookies.ok) return null;
    services.push({ purpose: draft.purpose, name: checked.name.value, description: checked.description.value, cookies: checked.cookies.value });
  }
  return services;
}

export function ServicesEditor({
  value,
  askedPurposes,
  onChange,
  newKey,
}: {
  value: readonly ServiceDraft[];
  /** The purposes the banner asks for: a new row starts with the first; a row under another is not listed. */
  askedPurposes: readonly OptionalPurpose[];
  onChange: (services: ServiceDraft[]) => void;
  /** A key no row has yet. */
  newKey: () => number;
}) {
  const id = useId();
  const full = value.length >= maxServices;

  function update(key: number, change: Partial<ServiceDraft>) {
    onChange(value.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)));
  }

  function add() {
    onChange([...value, { key: newKey(), purpose: askedPurposes[0] ?? 'analytics', name: '', description: '', cookies: '' }]);
  }

  return (
    <fieldset className="space-y-3" aria-describedby={`${id}-hint`}>
      <legend className="text-sm font-medium">Services and cookies</legend>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        What the banner lists under each purpose, so visitors know what they allow.
      </p>
      {value.length === 0 ? <p className="text-sm text-muted-foreground">No services listed yet.</p> : null}
      <ol className="space-y-4">
        {value.map((draft, index) => (
          <ServiceRow
            key={draft.key}
            draft={draft}
            number={index + 1}
            asked={askedPurposes.includes(draft.purpose)}
            onChange={(change) => update(draft.key, change)}
            onRemove={() => onChange(value.filter((item) => item.key !== draft.key))}
          />
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" size="sm" onClick={add} disabled={full}>
          <Plus aria-hidden />
          Add service
        </Button>
        {full ? <p className="text-xs text-muted-foreground">At most {maxServices} services.</p> : null}
      </div>
    </fieldset>
  );
}

function ServiceRow({
  draft,
  number,
  asked,
  onChange,
  onRemove,
}: {
  draft: ServiceDraft;
  number: number;
  asked: boolean;
  onChange: (change: Partial<ServiceDraft>) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const checked = checkServiceDraft(draft);
  const title = `Service ${number}`;
  return (
    <li>
      <fieldset className="space-y-3 rounded-md border p-3" aria-label={title}>
        <div className="flex items-center justify-between gap-3">
          <p className="text-sm font-medium" aria-hidden>
            {title}
          </p>
          <Button type="button" variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove service ${number}`}>
            <Trash2 aria-hidden />
            Remove
          </Button>
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="space-y-2">
            <Label htmlFor={`${id}-purpose`}>Purpose</Label>
            <Select value={draft.purpose} onValueChange={(purpose) => onChange({ purpose: purpose as OptionalPurpose })}>
              <SelectTrigger id={`${id}-purpose`} aria-describedby={asked ? undefined : `${id}-purpose-hint`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {optionalPurposes.map((purpose) => (
                  <SelectItem key={purpose} value={purpose}>
                    {purposeLabels[purpose]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            {asked ? null : (
              <p id={`${id}-purpose-hint`} className="text-xs text-muted-foreground">
                The banner does not ask for {purposeLabels[draft.purpose]}, so it does not list this service.
              </p>
            )}
          </div>
          <RowField label="Name" id={`${id}-name`} problem={checked.name.ok ? null : checked.name.problem}>
            <Input
              id={`${id}-name`}
              data-settings-field={`service-${draft.key}-name`}
              placeholder="Google Analytics"
              maxLength={maxServiceNameLength}
              value={draft.name}
              aria-invalid={!checked.name.ok}
              aria-describedby={checked.name.ok ? undefined : `${id}-name-hint`}
              onChange={(event) => onChange({ name: event.target.value })}
            />
          </RowField>
          <RowField
            label="Description"
            id={`${id}-description`}
            className="sm:col-span-2"
            problem={checked.description.ok ? null : checked.description.problem}
          >
            <Input
              id={`${id}-description`}
              data-settings-field={`service-${draft.key}-description`}
              placeholder="Counts visits and page views"
              maxLength={maxServiceDescriptionLength}
              value={draft.description}
              aria-invalid={!checked.description.ok}
              aria-describedby={checked.description.ok ? undefined : `${id}-description-hint`}
              onChange={(event) => onChange({ description: event.target.value })}
            />
          </RowField>
          <RowField
            label="Cookies"
            id={`${id}-cookies`}
            className="sm:col-span-2"
            problem={checked.cookies.ok ? null : checked.cookies.problem}
            hint="Names separated by commas, such as _ga, _gid."
          >
            <Input
              id={`${id}-cookies`}
              data-settings-field={`service-${draft.key}-cookies`}
              placeholder="_ga, _gid"
              value={draft.cookies}
              aria-invalid={!checked.cookies.ok}
              aria-describedby={`${id}-cookies-hint`}
              onChange={(event) => onChange({ cookies: event.target.value })}
            />
          </RowField>
        </div>
      </fieldset>
    </li>
  );
}

function RowField({
  label,
  id,
  problem,
  hint,
  className,
  children,
}: {
  label: string;
  id: string;
  problem: string | null;
  hint?: string;
  className?: string;
  children: ReactNode;
}) {
  const text = problem ?? hint;
  return (
    <div className={cn('space-y-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {text ? (
        <p id={`${id}-hint`} className={problem ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
          {text}
        </p>
      ) : null}
    </div>
  );
}
