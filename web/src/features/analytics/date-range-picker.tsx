// Start and end date of the analytics range, with the last 7, 30 or 90 days one press away. A range
// the api would refuse (start after end, more than 366 days) is explained and not applied.
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { getPresetOf, getRangeProblem, lastDaysRange, rangePresets, todayUtc, type DateRange } from './date-range';

export function DateRangePicker({ value, onChange }: { value: DateRange; onChange: (range: DateRange) => void }) {
  const [draft, setDraft] = useState<DateRange>(value);
  const id = useId();
  const problem = getRangeProblem(draft);
  const preset = problem ? null : getPresetOf(draft);

  function change(next: DateRange) {
    setDraft(next);
    if (!getRangeProblem(next)) onChange(next);
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <div className="space-y-2">
          <Label htmlFor={`${id}-start`}>Start date</Label>
          <Input
            id={`${id}-start`}
            type="date"
            className="sm:w-40"
            value={draft.startDate}
            max={draft.endDate || undefined}
            aria-invalid={problem !== null}
            onChange={(event) => change({ ...draft, startDate: event.target.value })}
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${id}-end`}>End date</Label>
          <Input
            id={`${id}-end`}
            type="date"
            className="sm:w-40"
            value={draft.endDate}
            min={draft.startDate || undefined}
            max={todayUtc()}
            aria-invalid={problem !== null}
            onChange={(event) => change({ ...draft, endDate: event.target.value })}
          />
        </div>
        <div className="flex gap-2" role="group" aria-label="Quick ranges">
          {rangePresets.map((days) => (
            <Button
              key={days}
              type="button"
              size="sm"
              className="h-10"
              variant={preset === days ? 'default' : 'outline'}
              aria-pressed={preset === days}
              onClick={() => change(lastDaysRange(days))}
            >
              {days} days
            </Button>
          ))}
        </div>
      </div>
      {problem ? (
        <p className="text-sm text-destructive" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
