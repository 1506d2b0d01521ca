// A small RFC 4180 CSV reader for the Open Cookie Database build (no CSV library is installed, and
// the data needs nothing beyond the RFC): quoted fields may hold commas, doubled quotes and line
// breaks. It is strict on purpose — a quote inside an unquoted field, text after a closing quote or
// an unterminated quote throws with the line number, so a damaged export fails the build instead of
// shifting columns silently.

export class CsvSyntaxError extends Error {
  override readonly name = 'CsvSyntaxError';
  constructor(
    readonly reason: string,
    readonly line: number,
  ) {
    super(`${reason} (line ${line})`);
  }
}

/**
 * Parses CSV text into records of fields. Records end at CRLF, LF or a lone CR; a final line break
 * does not start another record; an empty line is a record of one empty field; a leading byte-order
 * mark is ignored. Fields come back exactly as written (no trimming): what counts as noise is the
 * caller's decision.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let atFieldStart = true;
  let line = 1;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  while (index < text.length) {
    const char = text[index]!;
    if (char === ',') {
      record.push(field);
      field = '';
      atFieldStart = true;
      index += 1;
    } else if (char === '\n' || char === '\r') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      atFieldStart = true;
      index += char === '\r' && text[index + 1] === '\n' ? 2 : 1;
      line += 1;
    } else if (char === '"') {
      if (!atFieldStart) throw new CsvSyntaxError('quote inside an unquoted field', line);
      const openedOnLine = line;
      index += 1;
      for (;;) {
        const inner = text[index];
        if (inner === undefined) throw new CsvSyntaxError('unterminated quoted field', openedOnLine);
        if (inner === '"') {
          if (text[index + 1] !== '"') break;
          field += '"';
          index += 2;
          continue;
        }
        if (inner === '\n' || (inner === '\r' && text[index + 1] !== '\n')) line += 1;
        field += inner;
        index += 1;
      }
      index += 1; // the closing quote
      const next = text[index];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw new CsvSyntaxError('text after a closing quote', line);
      }
      atFieldStart = false;
    } else {
      field += char;
      atFieldStart = false;
      index += 1;
    }
  }
  // The last record has no line break after it (or the text ended right after one).
  if (!atFieldStart || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
