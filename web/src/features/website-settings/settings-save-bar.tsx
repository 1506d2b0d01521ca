// The save bar of the website settings: it appears once anything differs from the saved settings and
// stays at the bottom of the screen while the owner scrolls (sticky within the form). It says how
// many changes are unsaved and in which sections, offers Save and Discard, and when a field blocks
// saving it says which and why: a click on that takes the owner to the field.
import { useId } from 'react';
import { Button } from '../../components/ui/button';
import type { SettingsBlocker } from './settings-form-model';

/** `1 unsaved change`, `3 unsaved changes in Appearance and Regions`. */
export function describeUnsavedChanges(count: number, sections: string | null): string {
  const changes = `${count} unsaved ${count === 1 ? 'change' : 'changes'}`;
  return sections ? `${changes} in ${sections}` : changes;
}

export function SettingsSaveBar({
  summary,
  blocker,
  moreBlockers,
  saveProblem,
  saving,
  onFocusBlocker,
  onDiscard,
}: {
  /** What describeUnsavedChanges says. */
  summary: string;
  /** The first field that blocks saving, if any. */
  blocker: SettingsBlocker | null;
  /** How many more fields block saving. */
  moreBlockers: number;
  /** The api's reason for a refused save (400), until the form changes. */
  saveProblem: string | null;
  saving: boolean;
  onFocusBlocker: (blocker: SettingsBlocker) => void;
  onDiscard: () => void;
}) {
  const id = useId();
  const reasonId = `${id}-reason`;
  const problemId = `${id}-problem`;
  const describedBy = [blocker ? reasonId : null, saveProblem ? problemId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div
      role="region"
      aria-label="Unsaved changes"
      // Sticky inside the form: at the bottom of the screen while the form runs on below it.
      className="sticky bottom-0 z-20 -mx-6 flex flex-col gap-3 border-t bg-card px-6 py-3 shadow-[0_-6px_16px_-8px_rgb(0_0_0/0.15)] sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="min-w-0 space-y-1 text-sm">
        <p className="font-medium" aria-live="polite">
          {summary}
        </p>
        {blocker ? (
          <p id={reasonId} className="text-destructive">
            <span>Fix before saving: </span>
            <button
              type="button"
              className="inline text-left font-medium underline underline-offset-2 hover:no-underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              onClick={() => onFocusBlocker(blocker)}
            >
              {blocker.label}: {blocker.problem}
            </button>
            {moreBlockers > 0 ? <span> ({moreBlockers} more {moreBlockers === 1 ? 'field' : 'fields'} to fix)</span> : null}
          </p>
        ) : null}
        {saveProblem ? (
          <p id={problemId} role="alert" className="text-destructive">
            Not saved: {saveProblem}
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 gap-2">
        <Button type="button" variant="outline" className="flex-1 sm:flex-none" disabled={saving} onClick={onDiscard}>
          Discard
        </Button>
        <Button type="submit" className="flex-1 sm:flex-none" disabled={saving || blocker !== null} aria-describedby={describedBy}>
          {saving ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </div>
  );
}
