import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { excelDate, excelDateTime, inertText, isFormulaLike, restoreText } from './spreadsheet-cells.js';

describe('inertText (formula injection, OWASP "CSV Injection")', () => {
  it('prefixes a quote to text a spreadsheet would read as a formula', () => {
    for (const text of ['=1+1', '+61 2', '-2+3', '@SUM(A1)', '\t=1', '\r=1', '=HYPERLINK("http://x","y")']) {
      expect(inertText(text)).toBe(`'${text}`);
      expect(isFormulaLike(text)).toBe(true);
    }
  });

  it('leaves ordinary text alone', () => {
    for (const text of ['', 'Aaliyah', '6221234', 'St. Mary’s = good', "O'Brien", "'=already quoted"]) expect(inertText(text)).toBe(text);
  });

  it('never leaves a formula start, and the import restores exactly what was stored', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const safe = inertText(text);
        expect(isFormulaLike(safe)).toBe(false);
        expect(restoreText(safe)).toBe(text.startsWith("'") && isFormulaLike(text.slice(1)) ? text.slice(1) : text);
      }),
    );
  });
});

describe('dates for spreadsheets', () => {
  it('turns yyyy-MM-dd into that calendar day and refuses non-dates', () => {
    expect(excelDate('2014-03-09')?.toISOString()).toBe('2014-03-09T00:00:00.000Z');
    expect(excelDate('2014-02-30')).toBeNull();
    expect(excelDate('09/03/2014')).toBeNull();
    expect(excelDate(null)).toBeNull();
  });

  it("shows a timestamp as the school's wall-clock time (Trinidad, UTC-4)", () => {
    expect(excelDateTime('2026-01-01T04:30:15.000Z')?.toISOString()).toBe('2026-01-01T00:30:15.000Z');
    expect(excelDateTime('not a time')).toBeNull();
  });
});
