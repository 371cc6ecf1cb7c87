import Box from '@mui/material/Box';
import { reportCardUrl } from '../../shared/term-reports.schemas.js';
import { PdfDialog } from '../components/pdf-view.js';

export interface OpenReportCard {
  studentId: string;
  year: number;
  term: number | string;
  title: string;
}

/**
 * The report card in a full-screen dialog with Download PDF and Close (docs/requirements.md R9);
 * on a phone its pages are images (D45).
 */
export function ReportCardDialog({ card, onClose }: { card: OpenReportCard | null; onClose: () => void }) {
  return (
    <PdfDialog
      url={card ? reportCardUrl(card.studentId, card.year, card.term) : null}
      title={
        <>
          <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
            End of Term Report ·{' '}
          </Box>
          {card?.title}
        </>
      }
      label={card ? `Report card ${card.title}` : 'Report card'}
      onClose={onClose}
    />
  );
}
