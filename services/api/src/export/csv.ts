// CSV for exports: RFC 4180 quoting, and cells a spreadsheet would execute as a formula
// (=, +, -, @, and tab/CR which some apps also treat as formula starts) neutralised with a leading
// apostrophe, so an exported user agent or page URL cannot run anything on the owner's machine.

const formulaStart = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && formulaStart.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly (string | number | null)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
