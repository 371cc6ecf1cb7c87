import { useState } from 'react';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import Button from '@mui/material/Button';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import { useDownloadClassLetters } from './family.api.js';

/**
 * "Family code letters (PDF)" for the class chosen in the student list ('families.manage'):
 * asks first, since every student of the class gets a new code and the previous ones stop working,
 * then downloads one PDF with a letter per student.
 */
export function FamilyLettersButton({ classId }: { classId: string }) {
  const [asking, setAsking] = useState(false);
  const download = useDownloadClassLetters();
  const showSnackbar = useSnackbar();
  const confirm = () =>
    download.mutate(classId, {
      onSuccess: () => {
        setAsking(false);
        showSnackbar(`The family code letters of ${classId} are downloaded.`);
      },
      onError: (cause) => {
        setAsking(false);
        showSnackbar(errorMessage(cause), 'error');
      },
    });
  return (
    <>
      <Button variant="outlined" startIcon={<PictureAsPdfIcon aria-hidden />} onClick={() => setAsking(true)} disabled={download.isPending}>
        Family code letters (PDF)
      </Button>
      <ConfirmDialog
        open={asking}
        title={`Family code letters for ${classId}?`}
        confirmLabel="Make the letters"
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
        busy={download.isPending}
      >
        Each student of {classId} gets a new family code, and each student's previous code stops working. Print the letters and hand them out.
      </ConfirmDialog>
    </>
  );
}
