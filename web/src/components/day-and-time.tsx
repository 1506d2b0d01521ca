// An instant as its day on one line and its time below, so date columns of wide tables stay narrow;
// the whole date and time is the element's title.
import { formatDate, formatDateTime, formatTime } from '../lib/format';

export function DayAndTime({ value, prefix }: { value: string; prefix?: string }) {
  return (
    <time dateTime={value} title={formatDateTime(value)}>
      <span className="block whitespace-nowrap">
        {prefix ? `${prefix} ` : null}
        {formatDate(value)}
      </span>
      <span className="block text-xs text-muted-foreground">{formatTime(value)}</span>
    </time>
  );
}
