// The Rules by region part of the website settings form: whether to ask for consent everywhere, and
// the owner's own rule for the regions they name (a row each, to add and remove). Regions not named
// keep the default. The form owns the state; these draw it and report changes.
import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Switch } from '../../components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import type { RegionRules } from './queries';
import {
  checkRegionCode,
  consentRuleLabels,
  consentRules,
  duplicateRegionProblem,
  maxRegionRules,
  type Checked,
  type ConsentRule,
} from './validation';

/** A rule row as edited: the region as typed; `key` tells rows apart. */
export interface RegionRuleDraft {
  key: number;
  region: string;
  rule: ConsentRule;
}

export function toRegionRuleDrafts(rules: RegionRules, firstKey = 0): RegionRuleDraft[] {
  return Object.entries(rules).flatMap(([region, rule], index) => (rule ? [{ key: firstKey + index, region, rule }] : []));
}

/** Each row's region checked: a valid code the rows above do not name already. */
export function checkRegionRuleDrafts(drafts: readonly RegionRuleDraft[]): Checked<string>[] {
  const seen = new Set<string>();
  return drafts.map((draft) => {
    const checked = checkRegionCode(draft.region);
    if (!checked.ok) return checked;
    if (seen.has(checked.value)) return { ok: false, problem: duplicateRegionProblem };
    seen.add(checked.value);
    return checked;
  });
}

/** The rules as the api takes them (regions in upper case, sorted), or null while a row is invalid. */
export function toRegionRules(drafts: readonly RegionRuleDraft[]): RegionRules | null {
  if (drafts.length > maxRegionRules) return null;
  const checked = checkRegionRuleDrafts(drafts);
  const entries: [string, ConsentRule][] = [];
  for (const [index, region] of checked.entries()) {
    const draft = drafts[index];
    if (!region.ok || !draft) return null;
    entries.push([region.value, draft.rule]);
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

/** The saved rules as the form would send them, so an untouched table never counts as a change. */
export function sameRegionRules(rules: RegionRules, saved: RegionRules): boolean {
  return JSON.stringify(rules) === JSON.stringify(toRegionRules(toRegionRuleDrafts(saved)) ?? saved);
}

export function RegionRulesEditor({
  forceOptIn,
  onForceOptInChange,
  value,
  onChange,
  newKey,
}: {
  forceOptIn: boolean;
  onForceOptInChange: (forceOptIn: boolean) => void;
  value: readonly RegionRuleDraft[];
  onChange: (rules: RegionRuleDraft[]) => void;
  /** A key no row has yet. */
  newKey: () => number;
}) {
  const id = useId();
  const checked = checkRegionRuleDrafts(value);
  const full = value.length >= maxRegionRules;

  function update(key: number, change: Partial<RegionRuleDraft>) {
    onChange(value.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)));
  }

  return (
    <div className="space-y-4">
      <p className="text-xs text-muted-foreground">
        Regions you do not list get the default: opt-out in US states with privacy laws, such as California (US-CA);
        opt-in in the EU, the UK, Switzerland, Brazil and everywhere else.
      </p>

      <div className="flex items-start justify-between gap-4">
        <div className="space-y-1">
          <Label htmlFor={`${id}-force`}>Ask for consent everywhere (opt-in)</Label>
          <p id={`${id}-force-hint`} className="text-xs text-muted-foreground">
            Every visitor is asked before anything optional runs, wherever they are; the rules below then do not apply.
          </p>
        </div>
        <Switch id={`${id}-force`} checked={forceOptIn} aria-describedby={`${id}-force-hint`} onCheckedChange={onForceOptInChange} />
      </div>

      <fieldset className="space-y-3" aria-describedby={`${id}-hint`}>
        <legend className="text-sm font-medium">Your rules</legend>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          A region is EU (the EU and EEA), a country code such as GB or a US state such as US-CA; a state&apos;s rule comes
          before its country&apos;s. Opt-in asks first; opt-out allows until the visitor opts out; notice only informs
          without asking.
        </p>
        {value.length === 0 ? (
          <p className="text-sm text-muted-foreground">No rules of your own yet.</p>
        ) : (
          <Table aria-label="Rules by region">
            <TableHeader>
              <TableRow>
                <TableHead>Region</TableHead>
                <TableHead>Rule</TableHead>
                <TableHead>
                  <span className="sr-only">Remove</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {value.map((draft, index) => {
                const region = checked[index];
                const problem = region && !region.ok ? region.problem : null;
                const number = index + 1;
                const rowId = `${id}-${draft.key}`;
                return (
                  <TableRow key={draft.key} className="align-top">
                    <TableCell className="align-top">
                      <Input
                        id={`${rowId}-region`}
                        data-settings-field={`region-${draft.key}`}
                        aria-label={`Region ${number}`}
                        className="min-w-28 uppercase"
                        placeholder="US-CA"
                        maxLength={16}
                        value={draft.region}
                        aria-invalid={problem !== null}
                        aria-describedby={problem ? `${rowId}-problem` : undefined}
                        onChange={(event) => update(draft.key, { region: event.target.value })}
                      />
                      {problem ? (
                        <p id={`${rowId}-problem`} className="mt-1 text-xs text-destructive">
                          {problem}
                        </p>
                      ) : null}
                    </TableCell>
                    <TableCell className="align-top">
                      <Select value={draft.rule} onValueChange={(rule) => update(draft.key, { rule: rule as ConsentRule })}>
                        <SelectTrigger className="min-w-36" aria-label={`Rule for region ${number}`}>
                          <SelectValue />
                        </SelectTrigger>
                        <SelectContent>
                          {consentRules.map((rule) => (
                            <SelectItem key={rule} value={rule}>
                              {consentRuleLabels[rule]}
                            </SelectItem>
                          ))}
                        </SelectContent>
                      </Select>
                    </TableCell>
                    <TableCell className="w-0 align-top">
                      <Button
                        type="button"
                        variant="ghost"
                        size="sm"
                        aria-label={`Remove region ${number}`}
                        onClick={() => onChange(value.filter((item) => item.key !== draft.key))}
                      >
                        <Trash2 aria-hidden />
                        Remove
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={full}
            onClick={() => onChange([...value, { key: newKey(), region: '', rule: 'opt_in' }])}
          >
            <Plus aria-hidden />
            Add region
          </Button>
          {full ? <p className="text-xs text-muted-foreground">At most {maxRegionRules} regions.</p> : null}
        </div>
      </fieldset>
    </div>
  );
}
