// Display formats of spec section 9: en-US dates as short month, day, year and hour:minute; en-US
// number grouping; rates with one decimal and a percent sign; prices from cents.

const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const numberFormat = new Intl.NumberFormat('en-US');

/** `May 1, 2024, 12:05 PM`; an unparsable value is shown as given rather than as "Invalid Date". */
export function formatDateTime(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateTimeFormat.format(date);
}

/** `May 1, 2024`. */
export function formatDate(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateFormat.format(date);
}

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** `12:05 PM`: the time of day alone, for tables that show the day beside it. */
export function formatTime(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : timeFormat.format(date);
}

/** `12,345`. */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

/** `42.5%`. */
export function formatRate(percent: number): string {
  return `${percent.toFixed(1)}%`;
}

/** `2.35`: at most `digits` decimals, en-US grouping. */
export function formatDecimal(value: number, digits = 2): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }).format(value);
}

/** A duration in whole seconds as a person reads it: `45s`, `2m 35s`, `1h 5m`. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds < 60) return `${seconds}s`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours > 0) return `${formatNumber(hours)}h ${minutes}m`;
  return `${minutes}m ${seconds % 60}s`;
}

/** `$29` for whole dollars, `$29.99` otherwise. */
export function formatPrice(cents: number): string {
  const dollars = cents / 100;
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: Number.isInteger(dollars) ? 0 : 2,
  }).format(dollars);
}

/** `1 website`, `3 websites`, `10,000 consents`. */
export function formatCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(count)} ${count === 1 ? singular : plural}`;
}
