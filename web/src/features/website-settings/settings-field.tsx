// The building blocks of the settings form's sections: a labelled field with its hint (or, while
// invalid, its problem in the hint's place), a switch with its explanation, a section with its
// heading, and the setter every section edits the one form state through.
import type { ReactNode, SetStateAction } from 'react';
import { Label } from '../../components/ui/label';
import { Switch } from '../../components/ui/switch';
import type { SettingsForm } from './settings-form-model';
import { getSettingsSectionElementId, settingsSections, type SettingsSectionId } from './settings-sections';

/** Sets one field of the form; stable across renders, so a section re-renders only when its own fields change. */
export type SetSettingsField = <K extends keyof SettingsForm>(field: K, value: SetStateAction<SettingsForm[K]>) => void;

export function Field({
  label,
  htmlFor,
  hintId,
  hint,
  problem,
  children,
}: {
  label: string;
  htmlFor: string;
  hintId: string;
  hint: string;
  problem: string | null;
  children: ReactNode;
}) {
  return (
    <div className="space-y-2">
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
      <p id={hintId} className={problem ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
        {problem ?? hint}
      </p>
    </div>
  );
}

export function SwitchField({
  id,
  label,
  hint,
  checked,
  onCheckedChange,
}: {
  id: string;
  label: string;
  hint: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="space-y-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
      <Switch id={id} checked={checked} aria-describedby={`${id}-hint`} onCheckedChange={onCheckedChange} />
    </div>
  );
}

/** A section of the form: a region named by its heading, which the section index and save bar jump to. */
export function SettingsSection({ section, children }: { section: SettingsSectionId; children: ReactNode }) {
  const { title, description } = settingsSections.find((entry) => entry.id === section) ?? settingsSections[0];
  const elementId = getSettingsSectionElementId(section);
  return (
    // scroll-mt: below the app's header and the sticky section index when jumped to.
    <section id={elementId} aria-labelledby={`${elementId}-title`} className="scroll-mt-32 space-y-6 border-t pt-8 first-of-type:border-t-0 first-of-type:pt-0">
      <div className="space-y-1">
        <h3 id={`${elementId}-title`} tabIndex={-1} className="text-lg font-semibold tracking-tight outline-none">
          {title}
        </h3>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      {children}
    </section>
  );
}
