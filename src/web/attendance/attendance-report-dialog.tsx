import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { attendanceReportPath, checkReportRange } from '../../shared/attendance.schemas.js';
import { schoolToday } from '../../shared/dates.js';
import { PdfDialog } from '../components/pdf-view.js';
import { RangeDateField } from '../components/range-date-field.js';

interface RangeDialogProps {
  open: boolean;
  /** The range first shown: the term so far. */
  defaultStart: string | null;
  defaultEnd: string | null;
  onCancel: () => void;
  onDisplay: (startDate: string, endDate: string) => void;
}

/**
 * 'Generate Report' (docs/requirements.md R10): a start and an end date (no future dates, the start not after the
 * end — the same rule the server applies), Cancel and Display Report.
 */
function ReportRangeDialog({ open, defaultStart, defaultEnd, onCancel, onDisplay }: RangeDialogProps) {
  const today = schoolToday();
  const [start, setStart] = useState<string | null>(defaultStart);
  const [end, setEnd] = useState<string | null>(defaultEnd ?? today);
  const [submitted, setSubmitted] = useState(false);
  const problems = checkReportRange(start, end, today);
  const shown = submitted ? problems : {};

  const display = () => {
    setSubmitted(true);
    if (Object.keys(problems).length === 0 && start && end) onDisplay(start, end);
  };

  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="attendance-report-title" fullWidth maxWidth="xs">
      <DialogTitle id="attendance-report-title">Generate Report</DialogTitle>
      <DialogContent>
        <DialogContentText>Choose the dates the attendance report covers.</DialogContentText>
        <RangeDateField name="startDate" label="Start date" value={start} onChange={setStart} today={today} problem={shown.startDate} />
        <RangeDateField name="endDate" label="End date" value={end} onChange={setEnd} today={today} problem={shown.endDate} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" onClick={display}>
          Display Report
        </Button>
      </DialogActions>
    </Dialog>
  );
}

interface AttendanceReportProps {
  studentId: string;
  defaultStart: string | null;
  defaultEnd: string | null;
}

/** The 'Generate Report' button, its date-range dialog and the PDF full screen (page images on a phone, D45). */
export function AttendanceReport({ studentId, defaultStart, defaultEnd }: AttendanceReportProps) {
  const [choosing, setChoosing] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  return (
    <>
      <Button variant="contained" onClick={() => setChoosing(true)}>
        Generate Report
      </Button>
      {choosing && (
        <ReportRangeDialog
          open
          defaultStart={defaultStart}
          defaultEnd={defaultEnd}
          onCancel={() => setChoosing(false)}
          onDisplay={(start, end) => {
            setChoosing(false);
            setUrl(attendanceReportPath(studentId, start, end));
          }}
        />
      )}
      <PdfDialog url={url} title="Attendance Report" label="Attendance report PDF" onClose={() => setUrl(null)} />
    </>
  );
}
