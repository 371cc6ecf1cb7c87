import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_MESSAGES, findSlot, PHOTO_MAX_SIDE_PX, StoreFileAnswerSchema, THUMBNAIL_MAX_SIDE_PX, type UploadedFile } from '../../shared/documents.schemas.js';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { headerOnlyJpeg, HTML_PAGE, ONE_PIXEL_JPEG, storeFileBody, tinyPdf } from '../../../tests/support/test-files.js';
import { DEMO_FAMILY, DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';

/**
 * Photos in every paper slot and their thumbnails (docs/decisions.md D74), through the real app
 * on both engines: a phone's JPEG or a PNG is decoded, turned upright, scaled to the bound and
 * stored as that photo; what does not decode, or claims too many pixels, is refused and nothing is
 * stored; a thumbnail is made once, kept, and served only to whoever may open the photo.
 */

const { registered, inProgress } = DEMO_STUDENTS;
const me = inProgress.student_id;
const other = registered.student_id;
/** A student who is not one of the demo family's children. */
const notTheFamilys = DEMO_STUDENTS.firstLogin.student_id;

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.7.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
const student = () => client().signInStudent(me, inProgress.password);
const otherStudent = () => client().signInStudent(other, registered.password);
const admin = () => client().signInAdmin();
const office = () => client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
async function family(): Promise<TestClient> {
  const signedIn = client();
  const response = await signedIn.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password });
  expect(response.statusCode, response.body).toBe(200);
  return signedIn;
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function upload(c: TestClient, studentId: string, fileType: string, filename: string, bytes: Buffer) {
  const { body, headers } = storeFileBody(studentId, fileType, { filename, bytes, contentType: 'image/jpeg' });
  return c.post('/api/store-file', body, { headers });
}

async function uploadOk(c: TestClient, studentId: string, fileType: string, filename: string, bytes: Buffer): Promise<UploadedFile> {
  const response = await upload(c, studentId, fileType, filename, bytes);
  expect(response.statusCode, response.body).toBe(200);
  return StoreFileAnswerSchema.parse(response.json()).file;
}

const storedRow = (studentId: string, fileType: string) =>
  t.database.db.selectFrom('documents').selectAll().where('student_id', '=', studentId).where('file_type', '=', fileType).executeTakeFirst();

/** A phone's shot: 4,000 × 3,000 pixels as the sensor wrote them, tagged "turn 90° clockwise" (portrait), with words in its EXIF. */
function cameraJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#c8b89a' } })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Copyright: 'Taken at 10 Main Road' } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** A PNG whose header claims `width` × `height` pixels, its checksum right, its picture one pixel. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer());
  // IHDR's data starts at byte 16 (signature 8, length 4, type 4): width, height, then 5 bytes; its CRC follows.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('photos in a paper slot (D74)', () => {
  it('takes a camera JPEG for the birth certificate: upright, scaled to the bound, no EXIF, stored as a JPEG', async () => {
    const c = await student();
    const file = await uploadOk(c, me, 'birth_certificate', 'IMG_2041.JPG', await cameraJpeg());
    expect(file).toMatchObject({ name: 'IMG_2041.jpg', mime: 'image/jpeg', thumbnail_url: `${file.url}/thumbnail` });
    const row = await storedRow(me, 'birth_certificate');
    const stored = await sharp(Buffer.from(row!.bytes)).metadata();
    // Portrait, as the phone was held; the long side at the bound.
    expect({ format: stored.format, width: stored.width, height: stored.height }).toEqual({ format: 'jpeg', width: 1500, height: PHOTO_MAX_SIDE_PX });
    expect(stored.orientation).toBeUndefined();
    expect(stored.exif).toBeUndefined();
    expect(row!.size).toBe(Buffer.from(row!.bytes).length);
    // libvips keeps nothing of it: every upload is a new picture (photo-processing.ts).
    expect(sharp.cache().items.current).toBe(0);
  });

  it('takes a PNG for the birth certificate and keeps it a PNG, scaled when bigger than the bound', async () => {
    const c = await student();
    const png = await sharp({ create: { width: 2600, height: 1000, channels: 4, background: '#ffffff80' } }).png().toBuffer();
    const file = await uploadOk(c, me, 'birth_certificate', 'scan.png', png);
    expect(file).toMatchObject({ name: 'scan.png', mime: 'image/png' });
    const stored = await sharp(Buffer.from((await storedRow(me, 'birth_certificate'))!.bytes)).metadata();
    expect({ format: stored.format, width: stored.width, height: stored.height }).toEqual({ format: 'png', width: PHOTO_MAX_SIDE_PX, height: 769 });
    // A small photo is not enlarged.
    await uploadOk(c, me, 'sea_slip', 'slip.jpg', ONE_PIXEL_JPEG);
    expect(await sharp(Buffer.from((await storedRow(me, 'sea_slip'))!.bytes)).metadata()).toMatchObject({ width: 1, height: 1 });
  });

  it.each([
    ['a web page named .jpg', HTML_PAGE, DOCUMENT_MESSAGES.wrongKind(findSlot('immunization_card')!)],
    ['a JPEG whose header is right and the rest noise', headerOnlyJpeg(), DOCUMENT_MESSAGES.unreadableImage],
  ] as const)('refuses %s with 415 and a message, storing nothing', async (_label, bytes, message) => {
    const c = await otherStudent();
    const before = await storedRow(other, 'immunization_card');
    const body = expectError(await upload(c, other, 'immunization_card', 'card.jpg', bytes), 415, 'unsupported_media_type');
    expect(body.message).toBe(message);
    expect(body.errors?.file).toEqual([message]);
    expect((await storedRow(other, 'immunization_card'))?.sha256).toBe(before?.sha256);
  });

  it('refuses a photo that claims more pixels than the server decodes, before decoding it', async () => {
    const c = await otherStudent();
    const before = await storedRow(other, 'birth_certificate');
    const body = expectError(await upload(c, other, 'birth_certificate', 'huge.png', await pngClaiming(20_000, 20_000)), 413, 'payload_too_large');
    expect(body.message).toBe(DOCUMENT_MESSAGES.imageTooLarge);
    expect((await storedRow(other, 'birth_certificate'))?.sha256).toBe(before?.sha256);
  });

  it('still refuses a PDF for the picture, which is printed on the registration form', async () => {
    const c = await student();
    const body = expectError(await upload(c, me, 'picture', 'face.pdf', await tinyPdf()), 415);
    expect(body.message).toBe('Could not upload the file! The Picture must be a JPEG or PNG file.');
  });
});

describe('thumbnails (D74)', () => {
  it('is made once: the first ask stores it, the next is served from what is stored; a new file starts again', async () => {
    const c = await student();
    const file = await uploadOk(c, me, 'passport', 'passport.jpg', await cameraJpeg());
    expect((await storedRow(me, 'passport'))!.thumbnail).toBeNull();

    const first = await c.get(file.thumbnail_url!);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/jpeg');
    expect(first.headers['cache-control']).toBe('private, max-age=604800, immutable');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const size = await sharp(first.rawPayload).metadata();
    expect(Math.max(size.width, size.height)).toBe(THUMBNAIL_MAX_SIDE_PX);
    expect(size.height).toBeGreaterThan(size.width); // upright, like the photo
    const stored = (await storedRow(me, 'passport'))!.thumbnail;
    expect(stored && Buffer.from(stored).equals(first.rawPayload)).toBe(true);

    // Put other bytes in its place: a second ask that made a new one would not answer them.
    await t.database.db.updateTable('documents').set({ thumbnail: ONE_PIXEL_JPEG }).where('student_id', '=', me).where('file_type', '=', 'passport').execute();
    const second = await c.get(file.thumbnail_url!);
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(ONE_PIXEL_JPEG)).toBe(true);

    // A replacement has a new URL and no thumbnail until asked; the old URL is gone.
    const replaced = await uploadOk(c, me, 'passport', 'passport2.jpg', ONE_PIXEL_JPEG);
    expect((await storedRow(me, 'passport'))!.thumbnail).toBeNull();
    expectError(await c.get(file.thumbnail_url!), 404);
    expect((await c.get(replaced.thumbnail_url!)).statusCode).toBe(200);
  });

  it('a PDF has none: no thumbnail_url, and its URL answers 404', async () => {
    const c = await student();
    const file = await uploadOk(c, me, 'immunization_card', 'card.pdf', await tinyPdf());
    expect(file.thumbnail_url).toBeNull();
    expectError(await c.get(`${file.url}/thumbnail`), 404);
    expect((await storedRow(me, 'immunization_card'))!.thumbnail).toBeNull();
  });

  it("is served to the child's family and to the office, never to another student or another family, and is made for none of them", async () => {
    const mine = await uploadOk(await student(), me, 'student_permit', 'permit.jpg', await cameraJpeg());
    const theirs = await uploadOk(await admin(), notTheFamilys, 'student_permit', 'permit.jpg', ONE_PIXEL_JPEG);

    // Refused before anything is made.
    expectError(await (await otherStudent()).get(mine.thumbnail_url!), 403, 'forbidden');
    expectError(await (await family()).get(theirs.thumbnail_url!), 403, 'forbidden');
    expectError(await client().get(mine.thumbnail_url!), 401);
    expect((await storedRow(me, 'student_permit'))!.thumbnail).toBeNull();
    expect((await storedRow(notTheFamilys, 'student_permit'))!.thumbnail).toBeNull();

    expect((await (await family()).get(mine.thumbnail_url!)).statusCode).toBe(200);
    expect((await (await office()).get(theirs.thumbnail_url!)).statusCode).toBe(200);
    expect((await (await admin()).get(mine.thumbnail_url!)).statusCode).toBe(200);
    expectError(await (await office()).get('/api/documents/AAAAAAAAAAAAAAAAAAAAAA/thumbnail'), 404);
  });
});
