import { useRef, useState, type ChangeEvent, type ReactNode, type RefObject } from 'react';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../lib/api-client.js';

/** The spreadsheet types an import takes (docs/requirements.md R11: XLSX or CSV). */
const SPREADSHEET_TYPES = '.xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Sends the file to the server: a dry run (`dryRun`) or the import itself; `onSuccess` gets the answer. */
export type SendImport<Result> = (file: File, dryRun: boolean, onSuccess: (result: Result) => void) => void;

export interface CheckThenImport<Result> {
  input: RefObject<HTMLInputElement | null>;
  file: File | null;
  /** 'Check file' was pressed with no file chosen. */
  missingFile: boolean;
  /** The dry run's answer for the chosen file. */
  preview: Result | null;
  /** The import's answer, once it is done. */
  done: Result | null;
  choose: (event: ChangeEvent<HTMLInputElement>) => void;
  check: () => void;
  commit: () => void;
  /** Forgets the preview and the outcome (the file or what it is imported into changed). */
  clearResults: () => void;
}

/**
 * The state of an admin import (students, term results): choose a file, check it (a dry run that
 * shows every row's outcome and problem), then import it, all rows or none.
 */
export function useCheckThenImport<Result>(send: SendImport<Result>, resetRequest: () => void): CheckThenImport<Result> {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [missingFile, setMissingFile] = useState(false);
  const [preview, setPreview] = useState<Result | null>(null);
  const [done, setDone] = useState<Result | null>(null);

  const clearResults = () => {
    setPreview(null);
    setDone(null);
    resetRequest();
  };
  return {
    input,
    file,
    missingFile,
    preview,
    done,
    clearResults,
    choose(event) {
      setFile(event.target.files?.[0] ?? null);
      setMissingFile(false);
      clearResults();
    },
    check() {
      if (!file) return setMissingFile(true);
      setDone(null);
      send(file, true, setPreview);
    },
    commit() {
      if (!file) return;
      send(file, false, (result) => {
        setDone(result);
        setPreview(null);
        setFile(null);
        if (input.current) input.current.value = '';
      });
    },
  };
}

interface ImportFileControlsProps<Result> {
  importer: CheckThenImport<Result>;
  /** The file input's accessible name, e.g. 'Student file (XLSX or CSV)'. */
  fileLabel: string;
  /** The template download links shown before 'Choose file'. */
  templates: ReactNode;
  importLabel: string;
  canImport: boolean;
  request: { isPending: boolean; isError: boolean; error: unknown };
  /** What the success alert says once the import is done. */
  doneMessage: ReactNode;
}

/** Template links, the file chooser, 'Check file' and 'Import', and the fixed messages (R16). */
export function ImportFileControls<Result>({ importer, fileLabel, templates, importLabel, canImport, request, doneMessage }: ImportFileControlsProps<Result>) {
  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mt: 2 }}>
        {templates}
        <Button component="label" variant="outlined" startIcon={<UploadFileIcon aria-hidden />}>
          Choose file
          <input ref={importer.input} hidden type="file" name="file" accept={SPREADSHEET_TYPES} onChange={importer.choose} aria-label={fileLabel} />
        </Button>
        <Typography sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>{importer.file ? importer.file.name : 'No file chosen'}</Typography>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mt: 2 }}>
        <Button variant="contained" onClick={importer.check} disabled={request.isPending}>
          Check file
        </Button>
        <Button variant="contained" color="secondary" onClick={importer.commit} disabled={!canImport || request.isPending}>
          {importLabel}
        </Button>
      </Box>

      {importer.missingFile && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          Please select a file!
        </Alert>
      )}
      {request.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(request.error)}
        </Alert>
      )}
      {importer.done !== null && (
        <Alert severity="success" role="status" sx={{ mt: 2 }}>
          {doneMessage}
        </Alert>
      )}
    </>
  );
}
