import CloseIcon from '@mui/icons-material/Close';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import Alert from '@mui/material/Alert';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button, { type ButtonProps } from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import Stack from '@mui/material/Stack';
import { useTheme, type SxProps, type Theme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useId, useRef, useState, type ReactNode, type Ref } from 'react';
import { pdfDownloadUrl } from '../../shared/pdf.schemas.js';
import { isApiError, send, toApiError } from '../lib/api-client.js';
import { useInBrowser } from '../lib/use-in-browser.js';
import type { PageImage } from './pdf-pages.js';

/**
 * Every PDF the portal shows (report cards, the registration form, the attendance report, the
 * class reports, an uploaded PDF) goes through PdfView (PdfDialog: the same, full screen), and is
 * saved through DownloadPdfButton (D45). Phone browsers cannot show a PDF inside a page, so below
 * MUI's `sm` breakpoint — and in any browser that says it has no PDF viewer — the pages are drawn
 * as images with pdf.js, at the width of the screen; wider screens keep the browser's own viewer
 * in a frame (zoom, search, print).
 */

/** Sharper than the screen is wasted on a phone's memory: at most 3 device pixels per CSS pixel, 1,600 in all. */
const MAX_PIXEL_RATIO = 3;
const MAX_PIXEL_WIDTH = 1600;

/** What a PDF that pdf.js cannot read says (the bytes came, but are not a PDF it can draw). */
const PDF_UNREADABLE_MESSAGE = 'This PDF could not be shown here. Use Download PDF to open it in another app.';

/**
 * True where PDFs are shown as page images: a phone-width screen, or a browser without a PDF
 * viewer. Null where that is not known: in the page the server renders and while it hydrates.
 */
function useShowsPdfAsPages(): boolean | null {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const inBrowser = useInBrowser();
  if (!inBrowser) return null;
  return narrow || navigator.pdfViewerEnabled === false;
}

/** The one way to save a PDF, alike everywhere: "Download PDF", the same icon, the file as an attachment. */
export function DownloadPdfButton({ url, color, variant }: { url: string; color?: ButtonProps['color']; variant?: ButtonProps['variant'] }) {
  return (
    <Button href={pdfDownloadUrl(url)} color={color} variant={variant} startIcon={<FileDownloadIcon aria-hidden />} sx={{ flexShrink: 0 }}>
      Download PDF
    </Button>
  );
}

interface PdfViewProps {
  /** The PDF's address (shown inline). */
  url: string;
  /** The name of the frame, or of the region holding the page images. */
  title: string;
  /** The frame (wide screens only), e.g. to print it. */
  frameRef?: Ref<HTMLIFrameElement>;
  /** The frame's size and border on wide screens (one style object). */
  frameSx?: Exclude<SxProps<Theme>, readonly unknown[]>;
  /** Called once the PDF is on the screen: the frame has loaded it, or every page is drawn (the office's review waits for it). */
  onShown?: () => void;
}

/** A PDF in the page: the browser's viewer in a frame on wide screens, page images on a phone. */
export function PdfView({ url, title, frameRef, frameSx, onShown }: PdfViewProps) {
  const asPages = useShowsPdfAsPages();
  const frame = [{ display: 'block', border: 0, width: '100%', bgcolor: 'grey.100' }, frameSx ?? false] as const;
  // The room the PDF will take, until the browser says how it is shown (neither loads it meanwhile).
  if (asPages === null) return <Box sx={frame} />;
  if (asPages) return <PdfPages key={url} url={url} title={title} onShown={onShown} />;
  return (
    <Box
      component="iframe"
      key={url}
      ref={frameRef}
      src={url}
      title={title}
      onLoad={onShown}
      sx={frame}
    />
  );
}

/** How many CSS pixels wide the pages are drawn, times the screen's density (capped). */
function pixelWidthOf(element: HTMLElement | null): number {
  const cssWidth = element?.clientWidth || window.innerWidth;
  return Math.min(Math.round(cssWidth * Math.min(window.devicePixelRatio || 1, MAX_PIXEL_RATIO)), MAX_PIXEL_WIDTH);
}

/**
 * A PDF's bytes; a refusal throws the server's own `ApiError` (403 "…", 404 "…"), not a status.
 * Here and not in api-client.ts, which is in the sign-in page's bundle.
 */
async function fetchPdf(url: string, signal: AbortSignal): Promise<ArrayBuffer> {
  const response = await send(url, { method: 'GET', signal });
  if (!response.ok) throw await toApiError(response);
  return response.arrayBuffer();
}

/** The PDF fetched (the server's own message when it refuses), then drawn page by page. */
function PdfPages({ url, title, onShown }: { url: string; title: string; onShown?: (() => void) | undefined }) {
  const region = useRef<HTMLDivElement>(null);
  const [pages, setPages] = useState<PageImage[]>([]);
  const [pageCount, setPageCount] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const made: string[] = [];
    const pixelWidth = pixelWidthOf(region.current);
    Promise.all([fetchPdf(url, controller.signal), import('./pdf-pages.js')])
      .then(([bytes, { drawPdfPages }]) =>
        drawPdfPages(bytes, pixelWidth, controller.signal, (page, count) => {
          made.push(page.src);
          setPageCount(count);
          setPages((drawn) => [...drawn, page]);
        }),
      )
      .then(
        () => setPageCount((count) => count ?? 0),
        (cause: unknown) => {
          if (!controller.signal.aborted) setError(isApiError(cause) ? cause.displayMessage : PDF_UNREADABLE_MESSAGE);
        },
      );
    return () => {
      controller.abort();
      for (const src of made) URL.revokeObjectURL(src);
    };
  }, [url]);

  const loading = error === null && (pageCount === null || pages.length < pageCount);
  const shown = error === null && pageCount !== null && pageCount > 0 && pages.length >= pageCount;
  const onShownRef = useRef(onShown);
  onShownRef.current = onShown;
  useEffect(() => {
    if (shown) onShownRef.current?.();
  }, [shown]);
  return (
    <Box ref={region} role="region" aria-label={title} aria-busy={loading} sx={{ width: '100%' }}>
      {pages.map((page, index) => (
        <Box
          component="img"
          key={page.src}
          src={page.src}
          alt={`Page ${index + 1} of ${pageCount ?? pages.length}`}
          width={page.width}
          height={page.height}
          sx={{ display: 'block', width: '100%', height: 'auto', bgcolor: 'common.white', boxShadow: 1, '& + &': { mt: 1 } }}
        />
      ))}
      {loading && (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', justifyContent: 'center', py: 3 }}>
          <CircularProgress size={24} aria-hidden />
          <Typography role="status">{pageCount === null ? 'Loading the PDF…' : `Loading page ${pages.length + 1} of ${pageCount}…`}</Typography>
        </Stack>
      )}
      {pageCount === 0 && <Alert severity="info">This PDF has no pages.</Alert>}
      {error !== null && (
        <Alert severity="error" sx={{ m: 2 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}

interface PdfDialogProps {
  /** The PDF's address; null keeps the dialog closed. */
  url: string | null;
  /** The dialog's heading. */
  title: ReactNode;
  /** The PDF's name for the frame or the page images; the title when it is plain text. */
  label?: string;
  onClose: () => void;
}

/**
 * A PDF full screen with Download PDF and Close (docs/requirements.md R8–R11: the registration form from the student
 * list, a report card, the attendance report); page images on a phone (D45).
 */
export function PdfDialog({ url, title, label, onClose }: PdfDialogProps) {
  const titleId = useId();
  return (
    <Dialog fullScreen open={url !== null} onClose={onClose} aria-labelledby={titleId}>
      <AppBar position="relative" elevation={0}>
        <Toolbar sx={{ gap: 1, px: { xs: 1, sm: 2 } }}>
          <Typography id={titleId} component="h2" variant="h6" noWrap sx={{ flexGrow: 1, minWidth: 0, color: 'inherit', fontSize: { xs: '1rem', sm: '1.25rem' } }}>
            {title}
          </Typography>
          {url !== null && <DownloadPdfButton url={url} color="inherit" />}
          <Button color="inherit" startIcon={<CloseIcon aria-hidden />} onClick={onClose} sx={{ flexShrink: 0 }}>
            Close
          </Button>
        </Toolbar>
      </AppBar>
      <Box sx={{ flexGrow: 1, minHeight: 0, overflowY: 'auto', display: 'flex', flexDirection: 'column', bgcolor: 'grey.100' }}>
        {url !== null && <PdfView url={url} title={label ?? (typeof title === 'string' ? title : 'PDF')} frameSx={{ flexGrow: 1 }} />}
      </Box>
    </Dialog>
  );
}
