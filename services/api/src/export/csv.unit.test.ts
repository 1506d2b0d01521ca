// CSV cells of exports: quoted per RFC 4180, and no cell, nor any piece of one a spreadsheet with
// another list separator would split off, starts a formula (OWASP's CSV injection guidance).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv';

/** The text of one RFC 4180 cell as a spreadsheet set to commas reads it. */
function unquote(cell: string): string {
  return cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
}

/**
 * Every piece of a written cell that some spreadsheet may read as a cell start: the cell itself, and
 * whatever follows a `,` `;` tab or line break when the spreadsheet splits on those and ignores our
 * quotes (they only count at the start of a cell it split).
 */
function cellStarts(written: string): string[] {
  return written.split(/[,;\t\r\n]/).map((piece) => piece.replace(/^[\s"]*/, ''));
}

const startsFormula = (piece: string) => /^[=+\-@]/.test(piece);

describe('when a cell is plain text', () => {
  it.each([
    ['Example Bakery', 'Example Bakery'],
    ['https://bakery.example/menu?item=bread', 'https://bakery.example/menu?item=bread'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['2024-05-01T12:00:00.000Z', '2024-05-01T12:00:00.000Z'],
    ["O'Brien", "O'Brien"],
  ])('writes %j as %s', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it('writes numbers as they are and null as an empty cell', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', 1, null])).toBe('a,1,\r\n');
  });
});

describe('when a cell would start a formula', () => {
  it.each([
    ['=HYPERLINK("http://evil.test","click")', `"'=HYPERLINK(""http://evil.test"",""click"")"`],
    ['+cmd|" /C calc"!A0', `"'+cmd|"" /C calc""!A0"`],
    ['-2+3', "'-2+3"],
    ['@SUM(1+1)', "'@SUM(1+1)"],
    ['\t=1+1', "'\t'=1+1"],
    ['\r=1+1', `"'\r'=1+1"`],
    ['"=1+1"', `"'""=1+1"""`],
    // Spreadsheets trim leading whitespace before deciding whether a cell is a formula.
    [' =1+1', "' =1+1"],
    ['   @SUM(A1)', "'   @SUM(A1)"],
    ['\u00a0=1+1', "'\u00a0=1+1"],
    [' plain', "' plain"],
    ['\tplain', "'\tplain"],
  ])('neutralises %j as %s', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });
});

describe('when a cell holds a separator of another locale', () => {
  it.each([
    // A `;` spreadsheet splits here: the cell is marked as text, and a formula after the `;` too.
    ['a;=1+1', `"'a;'=1+1"`],
    ['a; =cmd|"/C calc"!A0', `"'a;' =cmd|""/C calc""!A0"`],
    ['a;"=1+1"', `"'a;'""=1+1"""`],
    ['Mozilla/5.0 (X11; Linux x86_64)', `"'Mozilla/5.0 (X11; Linux x86_64)"`],
    ['https://shop.example/cart;jsessionid=abc', `"'https://shop.example/cart;jsessionid=abc"`],
    // Split on commas by a reader that ignores our quotes, on tabs, or on line breaks.
    ['bread,=1+1', `"bread,'=1+1"`],
    ['bread\t+1', "bread\t'+1"],
    ['bread\n@SUM(1)', `"bread\n'@SUM(1)"`],
  ])('neutralises %j as %s', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });
});

describe('for any text', () => {
  // Strings built mostly from the characters that matter, so the interesting cases come up often.
  const hostileText = fc.string({ unit: fc.constantFrom('=', '+', '-', '@', ';', ',', '"', "'", ' ', '\t', '\r', '\n', '\u00a0', 'a', '1', '(', ')'), maxLength: 24 });

  it('no piece a spreadsheet may read as a cell starts a formula', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.string()), (value) => {
        expect(cellStarts(csvCell(value)).filter(startsFormula)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the text: only apostrophes are added, and a comma spreadsheet reads one cell', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.string()), (value) => {
        const written = csvCell(value);
        expect(unquote(written).replace(/'/g, '')).toBe(value.replace(/'/g, ''));
        // Unquoted cells carry no character that would end the cell or the row.
        if (!written.startsWith('"')) expect(written).not.toMatch(/[",;\r\n]/);
      }),
      { numRuns: 2000 },
    );
  });
});
