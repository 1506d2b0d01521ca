// The RFC 4180 reader: the cases the Open Cookie Database relies on (quoted commas and line breaks)
// and the damaged inputs it must refuse rather than misread.
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv } from './csv';

describe('parseCsv', () => {
  it('reads plain records with LF, CRLF or CR line endings', () => {
    expect(parseCsv('a,b\nc,d\n')).toEqual([['a', 'b'], ['c', 'd']]);
    expect(parseCsv('a,b\r\nc,d\r\n')).toEqual([['a', 'b'], ['c', 'd']]);
    expect(parseCsv('a,b\rc,d')).toEqual([['a', 'b'], ['c', 'd']]);
  });

  it('keeps the last record when the text does not end in a line break', () => {
    expect(parseCsv('a,b\nc,d')).toEqual([['a', 'b'], ['c', 'd']]);
  });

  it('reads empty fields, including a trailing one', () => {
    expect(parseCsv(',a,,\n')).toEqual([['', 'a', '', '']]);
    expect(parseCsv('a,')).toEqual([['a', '']]);
  });

  it('reads an empty line as a record of one empty field, and empty text as no records', () => {
    expect(parseCsv('a\n\nb\n')).toEqual([['a'], [''], ['b']]);
    expect(parseCsv('')).toEqual([]);
  });

  describe('when a field is quoted', () => {
    it('keeps commas, line breaks and doubled quotes inside it', () => {
      expect(parseCsv('"a,b","line 1\nline 2","say ""hi""",plain\n')).toEqual([['a,b', 'line 1\nline 2', 'say "hi"', 'plain']]);
      expect(parseCsv('"x\r\ny",z\r\n')).toEqual([['x\r\ny', 'z']]);
    });

    it('reads an empty quoted field and a field that is only a quote', () => {
      expect(parseCsv('"",""""\n')).toEqual([['', '"']]);
    });

    it('keeps spaces exactly as written', () => {
      expect(parseCsv(' a ," b "\n')).toEqual([[' a ', ' b ']]);
    });
  });

  it('ignores a leading byte-order mark', () => {
    expect(parseCsv('\ufeff"ID",x\n')).toEqual([['ID', 'x']]);
  });

  describe('when the text is damaged', () => {
    it('refuses a quoted field that never closes, naming the line it opened on', () => {
      expect(() => parseCsv('a\nb,"open\nmore')).toThrow(new CsvSyntaxError('unterminated quoted field', 2));
    });

    it('refuses text after a closing quote', () => {
      expect(() => parseCsv('"a"b,c')).toThrow(CsvSyntaxError);
    });

    it('refuses a quote inside an unquoted field, naming its line', () => {
      expect(() => parseCsv('ok\n"multi\nline",a"b')).toThrow(new CsvSyntaxError('quote inside an unquoted field', 3));
    });
  });
});
