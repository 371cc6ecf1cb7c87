import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOCUMENT_MESSAGES, findSlot, type StoreFileAnswer, type UploadedFile } from '../../shared/documents.schemas.js';
import { UNREACHABLE_MESSAGE } from '../lib/api-client.js';
import { hasUnsentWork } from '../lib/unsent-work.js';
import { mediaQueryList } from '../../../tests/support/media-query.js';
import { createQueryClient, renderScreen } from '../../../tests/support/render-web.js';
import { DocumentSlotCard } from './document-slot-card.js';
import { filesQuery, useDocumentUploadsInProgress } from './documents.api.js';

/**
 * One document slot on its own (D74): what its file choosers accept and whether a phone is
 * offered the camera, the upload that starts as soon as a file is chosen, one upload at a time
 * however often it is chosen, and a failure's message with Try again. The upload's
 * XMLHttpRequest is the only call; a stand-in answers it here.
 */

const STUDENT_ID = '20240007';
const birthCertificate = findSlot('birth_certificate')!;

/** The requests the slot sent, in order; each is answered by the test. */
let sent: FakeUpload[];

class FakeUpload {
  status = 0;
  responseText = '';
  body: FormData | null = null;
  readonly upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    expect([method, url]).toEqual(['POST', '/api/store-file']);
  }
  setRequestHeader() {}
  abort() {}
  send(body: FormData) {
    this.body = body;
    sent.push(this);
  }
  /** The chosen file as sent. */
  get file(): File {
    return this.body!.get('file') as File;
  }
  progress(fraction: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded: fraction * 1000, total: 1000 }));
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    act(() => this.onload?.());
  }
  dropConnection() {
    act(() => this.onerror?.());
  }
}

function storedAnswer(name: string): StoreFileAnswer {
  const file: UploadedFile = {
    name,
    type: 'birth_certificate',
    url: '/api/documents/AAAAAAAAAAAAAAAAAAAAAA',
    thumbnail_url: '/api/documents/AAAAAAAAAAAAAAAAAAAAAA/thumbnail',
    mime: 'image/jpeg',
    size: 120_000,
    uploaded_at: '2026-11-27T10:00:00.000Z',
    review_state: 'submitted',
    review_reason: null,
  };
  return { message: DOCUMENT_MESSAGES.uploaded, file, documents: 0 };
}

/** Whether a phone's coarse pointer is reported (MUI's useMediaQuery asks matchMedia). */
function pretendTouchScreen(touch: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => mediaQueryList(query, touch && query.includes('pointer: coarse')));
}

beforeEach(() => {
  sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
  // The CSRF cookie is there already: the upload is the only call.
  document.cookie = 'XSRF-TOKEN=test-token';
  pretendTouchScreen(false);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The slot as the Documents step draws it: its file from the list the upload updates, and the screen's uploading state beside it. */
function Slot() {
  const files = useQuery({ ...filesQuery(STUDENT_ID), staleTime: Infinity });
  const uploading = useDocumentUploadsInProgress();
  return (
    <div data-uploading={uploading}>
      <DocumentSlotCard
        slot={birthCertificate}
        required
        file={files.data?.find((file) => file.type === 'birth_certificate')}
        studentId={STUDENT_ID}
        editable
        onStored={() => undefined}
      />
    </div>
  );
}

function renderSlot() {
  const queryClient = createQueryClient();
  queryClient.setQueryData(filesQuery(STUDENT_ID).queryKey, []);
  const rendered = renderScreen(<Slot />, { queryClient });
  const fileInput = rendered.container.querySelector<HTMLInputElement>('input[name="file-birth_certificate"]')!;
  const uploadingState = () => rendered.container.querySelector('[data-uploading]')!.getAttribute('data-uploading');
  return { ...rendered, fileInput, uploadingState };
}

const photo = (name = 'IMG_2041.jpg') => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], name, { type: 'image/jpeg' });

function choose(input: HTMLInputElement, file: File) {
  fireEvent.change(input, { target: { files: [file] } });
}

describe('what a slot offers', () => {
  it('takes a PDF, JPEG or PNG from the file chooser, with no Upload button and no camera on a desktop', () => {
    const { fileInput, container } = renderSlot();
    expect(fileInput.getAttribute('accept')).toBe('application/pdf,.pdf,image/jpeg,.jpg,.jpeg,image/png,.png');
    expect(fileInput.hasAttribute('capture')).toBe(false);
    expect(container.querySelector('input[capture]')).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose a file' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Take a photo' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Upload' })).toBeNull();
    expect(screen.getByText(/A photo or a scan \(PDF\) of the student's birth certificate\. PDF, JPEG or PNG only\./)).toBeTruthy();
  });

  it('offers "Take a photo" (the camera) beside "Choose a file" on a touch screen', () => {
    pretendTouchScreen(true);
    const { container, fileInput } = renderSlot();
    const camera = container.querySelector<HTMLInputElement>('input[name="camera-birth_certificate"]')!;
    expect(camera.getAttribute('accept')).toBe('image/*');
    expect(camera.getAttribute('capture')).toBe('environment');
    expect(fileInput.hasAttribute('capture')).toBe(false);
    const click = vi.spyOn(camera, 'click');
    fireEvent.click(screen.getByRole('button', { name: 'Take a photo' }));
    expect(click).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Choose a file' })).toBeTruthy();
  });
});

describe('uploading as soon as a file is chosen', () => {
  it('sends the file chosen with its progress, once however often it is chosen, and shows it stored', async () => {
    const { fileInput, uploadingState, container } = renderSlot();
    expect(uploadingState()).toBe('false');
    const chosen = photo();
    choose(fileInput, chosen);
    // Chosen again, and another file from the camera, while the first is on its way.
    choose(fileInput, chosen);
    choose(fileInput, photo('second.jpg'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.file.name).toBe('IMG_2041.jpg');
    expect(sent[0]!.body!.get('file_type')).toBe('birth_certificate');
    expect(uploadingState()).toBe('true');
    expect(hasUnsentWork()).toBe(true);
    expect(screen.getByRole('button', { name: 'Choose a file' })).toHaveProperty('disabled', true);

    sent[0]!.progress(0.4);
    expect(screen.getByRole('progressbar', { name: 'Uploading Birth Certificate' }).getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByRole('status').textContent).toBe('Uploading… 40%');

    sent[0]!.answer(200, storedAnswer('IMG_2041.jpg'));
    await screen.findByTestId('file-name');
    expect(screen.getByTestId('file-name').textContent).toBe('IMG_2041.jpg');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(uploadingState()).toBe('false');
    expect(hasUnsentWork()).toBe(false);
    // The thumbnail is the server's small picture, not the photo.
    expect(container.querySelector('img')!.getAttribute('src')).toBe('/api/documents/AAAAAAAAAAAAAAAAAAAAAA/thumbnail');
    expect(sent).toHaveLength(1);
  });
});

describe('when an upload fails', () => {
  it("shows why the server refused the file, with no Try again: the same file would fail again", async () => {
    const { fileInput } = renderSlot();
    choose(fileInput, photo('card.jpg'));
    await waitFor(() => expect(sent).toHaveLength(1));
    sent[0]!.answer(415, { message: DOCUMENT_MESSAGES.unreadableImage, code: 'unsupported_media_type', errors: { file: [DOCUMENT_MESSAGES.unreadableImage] } });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(DOCUMENT_MESSAGES.uploadFailed);
    expect(alert.textContent).toContain('The photo could not be read.');
    expect(within(alert).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByTestId('file-name')).toBeNull();
    // Another file can be chosen straight away.
    choose(fileInput, photo('card-again.jpg'));
    await waitFor(() => expect(sent).toHaveLength(2));
  });

  it('sends the same file again with Try again when the server was busy', async () => {
    const { fileInput } = renderSlot();
    const chosen = photo('card.jpg');
    choose(fileInput, chosen);
    await waitFor(() => expect(sent).toHaveLength(1));
    const busy = 'The server is busy making other documents and reading other files. Try again in a minute.';
    sent[0]!.answer(503, { message: busy, code: 'service_unavailable' });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(DOCUMENT_MESSAGES.uploadFailed);
    expect(alert.textContent).toContain(busy);
    expect(screen.queryByTestId('file-name')).toBeNull();

    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect([sent[1]!.file.name, sent[1]!.file.size]).toEqual([chosen.name, chosen.size]);
    expect(screen.queryByRole('alert')).toBeNull();
    sent[1]!.answer(200, storedAnswer('card.jpg'));
    await screen.findByTestId('file-name');
  });

  it('says the server could not be reached when the connection drops, and Try again sends it', async () => {
    const { fileInput, uploadingState } = renderSlot();
    choose(fileInput, photo());
    await waitFor(() => expect(sent).toHaveLength(1));
    sent[0]!.dropConnection();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(UNREACHABLE_MESSAGE);
    expect(uploadingState()).toBe('false');
    // Choosing is open again too.
    expect(screen.getByRole('button', { name: 'Choose a file' })).toHaveProperty('disabled', false);
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(sent).toHaveLength(2));
  });
});
