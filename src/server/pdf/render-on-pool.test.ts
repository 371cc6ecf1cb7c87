import { describe, expect, it } from 'vitest';
import { expectLoopKeptTurning, longestEventLoopDelay } from '../../../tests/support/event-loop.js';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { PAGE_SIZES } from './printout.js';
import { renderPdf } from './render-on-pool.js';
import { checklist, dataTable, keyValueGrid, pageFooter, schoolHeader, sectionTitle, signatureLines } from './pieces.js';

describe('rendering on the pool, and the pieces', () => {
  it('renders every piece on Legal paper with the embedded font, and the text reads back', async () => {
    const bytes = await renderPdf({
      pageSize: PAGE_SIZES.legal,
      pageMargins: [40, 40, 40, 50],
      footer: pageFooter('Test school · confidential'),
      content: [
        schoolHeader('Test School', 'Registration Form', 'Academic year 2026-2027'),
        sectionTitle('Student'),
        keyValueGrid([['First name', 'Zoë'], ['Last name', "O'Neil-Ramkissoon"], ['Middle name', null]]),
        dataTable(['Subject', 'Total'], [['Mathematics', 81.5], ['Spanish', '']]),
        checklist([{ label: 'Birth certificate', checked: true }, { label: 'Passport', checked: false }]),
        signatureLines(['Parent or guardian', 'Principal']),
      ],
    });
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const pdf = await readPdf(bytes);
    expect(pdf.pageSizes[0]).toEqual([612, 1008]);
    for (const text of ['Test School', 'Registration Form', 'Zoë', "O'Neil-Ramkissoon", 'Mathematics', '81.5', 'Birth certificate', 'Page 1 of 1']) {
      expect(pdf.compact).toContain(text.replace(/\s+/g, ''));
    }
  });

  it('renders off the event loop: a 2,000-row report leaves it turning', async () => {
    const rows = Array.from({ length: 2_000 }, (_, i) => [`2026${String(i).padStart(4, '0')}`, `Student ${i}`, '1A', 'Yes', 'No', 'Birth certificate, SEA slip']);
    const measure = await longestEventLoopDelay(() =>
      renderPdf({
        pageSize: PAGE_SIZES.letter,
        footer: pageFooter('Registration Report'),
        content: [schoolHeader('Test School', 'Registration Report'), dataTable(['ID', 'Name', 'Class', 'Data', 'Terms', 'Missing'], rows)],
      }),
    );
    const pdf = await readPdf(measure.result);
    expect(pdf.pages).toBeGreaterThan(30);
    expect(pdf.compact).toContain('Student1999');
    // Laid out on this thread, this document holds the event loop for about a second.
    expectLoopKeptTurning(measure);
  });
});
