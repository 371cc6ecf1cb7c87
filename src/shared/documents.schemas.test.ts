import { describe, expect, it } from 'vitest';
import {
  acceptAttribute,
  acceptedKindsLabel,
  cleanFileName,
  DOCUMENT_SLOTS,
  FILE_NAME_MAX,
  findSlot,
  fitWithin,
  formatBytes,
  isNonNational,
  isSlotRequired,
  PHOTO_MAX_SIDE_PX,
  requiredDocumentTypes,
  takesPhotos,
} from './documents.schemas.js';
import { computeProgress } from './registration.progress.js';

describe('required document slots', () => {
  it('asks every student for the birth certificate, immunization card, SEA slip and picture', () => {
    expect(requiredDocumentTypes({ nationality: 'Trinidadian', immigration_permit: 0 })).toEqual(['birth_certificate', 'immunization_card', 'sea_slip', 'picture']);
    expect(requiredDocumentTypes({})).toEqual(['birth_certificate', 'immunization_card', 'sea_slip', 'picture']);
  });

  it('adds passport and student permit for a permit holder or a non-national', () => {
    const all = DOCUMENT_SLOTS.map((slot) => slot.type);
    expect(requiredDocumentTypes({ nationality: 'Trinidadian', immigration_permit: 1 })).toEqual(all);
    expect(requiredDocumentTypes({ nationality: 'Venezuelan', immigration_permit: 0 })).toEqual(all);
    for (const national of ['Trinidadian', 'Tobagonian', 'Trinidad and Tobago', 'trini', 'T&T', 'Trinbagonian', ' TT ']) {
      expect(isNonNational({ nationality: national }), national).toBe(false);
    }
    for (const foreign of ['Guyanese', 'Grenadian', 'Vincentian', 'Scottish']) expect(isNonNational({ nationality: foreign }), foreign).toBe(true);
    expect(isSlotRequired(DOCUMENT_SLOTS.find((slot) => slot.type === 'passport')!, { nationality: '' })).toBe(false);
  });

  it('drives the Documents progress flag through computeProgress', () => {
    const four = ['birth_certificate', 'immunization_card', 'sea_slip', 'picture'];
    expect(computeProgress({ nationality: 'Trinidadian' }, four).documents).toBe(1);
    expect(computeProgress({ nationality: 'Guyanese' }, four).documents).toBe(0);
    expect(computeProgress({ nationality: 'Guyanese' }, [...four, 'passport', 'student_permit']).documents).toBe(1);
  });
});

describe('cleanFileName', () => {
  it('keeps the last path segment, drops control and bidi characters, and fixes the extension', () => {
    expect(cleanFileName('../../etc/passwd', 'pdf')).toBe('passwd.pdf');
    expect(cleanFileName('C:\\fakepath\\scan 1.JPG', 'png')).toBe('scan 1.png');
    expect(cleanFileName('a\u0000b\u001fc\u202ed\u200b.pdf', 'pdf')).toBe('abcd.pdf');
    expect(cleanFileName('  many    spaces  .pdf', 'pdf')).toBe('many spaces.pdf');
    expect(cleanFileName('', 'jpeg', 'picture')).toBe('picture.jpg');
    expect(cleanFileName('...', 'pdf')).toBe('document.pdf');
    expect(cleanFileName('report.tar.gz', 'pdf')).toBe('report.tar.pdf');
  });

  it('never exceeds the maximum length, counting characters not bytes', () => {
    const name = cleanFileName(`${'é'.repeat(500)}.pdf`, 'pdf');
    expect(Array.from(name)).toHaveLength(FILE_NAME_MAX);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});

describe('formatBytes', () => {
  it('reads as file managers show sizes', () => {
    expect(formatBytes(10 * 1024 * 1024)).toBe('10 MB');
    expect(formatBytes(65536)).toBe('64 KB');
    expect(formatBytes(1536 * 1024)).toBe('1.5 MB');
    expect(formatBytes(70)).toBe('70 bytes');
  });
});

describe('the kinds each slot takes (D74)', () => {
  it('takes a PDF or a photo in every paper slot, and only a photo for the picture', () => {
    const kinds = Object.fromEntries(DOCUMENT_SLOTS.map((slot) => [slot.type, acceptedKindsLabel(slot)]));
    expect(kinds).toEqual({
      birth_certificate: 'PDF, JPEG or PNG',
      immunization_card: 'PDF, JPEG or PNG',
      sea_slip: 'PDF, JPEG or PNG',
      picture: 'JPEG or PNG',
      passport: 'PDF, JPEG or PNG',
      student_permit: 'PDF, JPEG or PNG',
    });
    expect(DOCUMENT_SLOTS.every(takesPhotos)).toBe(true);
    for (const slot of DOCUMENT_SLOTS) expect(slot.hint, slot.type).toMatch(/photo/);
  });

  it("lists each kind's MIME type and extension for the file chooser", () => {
    expect(acceptAttribute(findSlot('birth_certificate')!)).toBe('application/pdf,.pdf,image/jpeg,.jpg,.jpeg,image/png,.png');
    expect(acceptAttribute(findSlot('picture')!)).toBe('image/jpeg,.jpg,.jpeg,image/png,.png');
  });
});

describe('fitWithin (the photo bound, D74)', () => {
  it('scales the longest side to the bound and keeps the proportions', () => {
    expect(PHOTO_MAX_SIDE_PX).toBe(2000);
    expect(fitWithin(3000, 4000)).toEqual({ width: 1500, height: 2000 });
    expect(fitWithin(4000, 3000)).toEqual({ width: 2000, height: 1500 });
    expect(fitWithin(4032, 3024)).toEqual({ width: 2000, height: 1500 });
    expect(fitWithin(2600, 1000)).toEqual({ width: 2000, height: 769 });
  });

  it('never enlarges, and never makes a side of zero', () => {
    expect(fitWithin(2000, 2000)).toEqual({ width: 2000, height: 2000 });
    expect(fitWithin(640, 480)).toEqual({ width: 640, height: 480 });
    expect(fitWithin(30_000, 1)).toEqual({ width: 2000, height: 1 });
    expect(fitWithin(500, 300, 100)).toEqual({ width: 100, height: 60 });
  });
});
