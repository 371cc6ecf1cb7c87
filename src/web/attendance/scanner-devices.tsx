import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CreateScannerDeviceSchema, type CreatedScannerDevice, type ScannerDevice } from '../../shared/attendance.schemas.js';
import { useCreateScannerDevice, useRevokeScannerDevice, useScannerDevices } from './attendance-admin.api.js';
import { schoolTimeOf } from '../../shared/dates.js';
import { SecretShownOnceDialog } from '../components/secret-shown-once-dialog.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { HIDE_ON_PHONE_SX, PHONE_TABLE_SX } from '../components/table-priority.js';
import { errorMessage } from '../lib/api-client.js';
import { usePageTitle } from '../lib/use-page-title.js';

/** 'yyyy-MM-dd HH:mm' in the school's time zone, or '—'. */
const moment = (iso: string | null): string => (iso ? schoolTimeOf(iso) : '—');

/**
 * Scanner Devices: the gate scanners allowed to send scans. Each gets a key, shown
 * once when it is added; revoking a device stops its key at once.
 */
export function ScannerDevices() {
  usePageTitle('Scanner Devices');
  const devices = useScannerDevices();
  const [created, setCreated] = useState<CreatedScannerDevice | null>(null);
  const [revoking, setRevoking] = useState<ScannerDevice | null>(null);

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
        Scanner Devices
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        Each gate scanner sends its scans to <code>POST /api/attendance/scans</code> with the header{' '}
        <code>Authorization: Bearer &lt;key&gt;</code> and a body such as{' '}
        <code>{'{ "scans": [{ "student_id": "20220001", "date": "2026-11-05", "time": "07:41:05" }] }'}</code>. The first scan
        of a day is the time in, the last the time out.
      </Typography>

      <AddDeviceForm onCreated={setCreated} />
      {devices.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(devices.error)}
        </Alert>
      )}

      <DevicesTable devices={devices.data} onRevoke={setRevoking} />
      <DeviceKeyDialog device={created} onClose={() => setCreated(null)} />
      <RevokeDeviceDialog device={revoking} onClose={() => setRevoking(null)} />
    </Paper>
  );
}

/** The name of a new device, checked with the server's own schema; the created device (with its key) goes to `onCreated`. */
function AddDeviceForm({ onCreated }: { onCreated: (device: CreatedScannerDevice) => void }) {
  const create = useCreateScannerDevice();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);

  const add = (event: FormEvent) => {
    event.preventDefault();
    const parsed = CreateScannerDeviceSchema.safeParse({ name });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? 'This field is required.');
      return;
    }
    setNameError(null);
    create.mutate(parsed.data, {
      onSuccess: (device) => {
        setName('');
        onCreated(device);
      },
    });
  };

  return (
    <>
      <Box component="form" method="post" noValidate onSubmit={add} sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap', mt: 1 }}>
        <TextField
          name="device_name"
          label="Device name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={nameError !== null}
          helperText={nameError ?? 'For example: Main gate, north reader'}
          slotProps={{ htmlInput: { maxLength: 60 }, formHelperText: nameError !== null ? { role: 'alert' } : {} }}
          sx={{ maxWidth: 360 }}
        />
        <Button type="submit" variant="contained" disabled={create.isPending} sx={{ mt: { xs: 0, sm: 3 } }}>
          Add Device
        </Button>
      </Box>
      {create.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {errorMessage(create.error)}
        </Alert>
      )}
    </>
  );
}

function DevicesTable({ devices, onRevoke }: { devices: ScannerDevice[] | undefined; onRevoke: (device: ScannerDevice) => void }) {
  return (
    <TableContainer sx={{ mt: 2 }}>
      {/* On a phone the Added column is left out, so Revoke stays on the screen (D46). */}
      <Table size="small" aria-label="Scanner devices" sx={PHONE_TABLE_SX}>
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell sx={HIDE_ON_PHONE_SX}>Added</TableCell>
            <TableCell>Last seen</TableCell>
            <TableCell>Status</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(devices ?? []).map((device) => (
            <TableRow key={device.id}>
              <TableCell component="th" scope="row">
                {device.name}
              </TableCell>
              <TableCell sx={HIDE_ON_PHONE_SX}>{moment(device.created_at)}</TableCell>
              <TableCell>{moment(device.last_seen_at)}</TableCell>
              <TableCell>
                {device.revoked_at ? (
                  <Chip size="small" label={`Revoked ${moment(device.revoked_at)}`} />
                ) : (
                  <Chip size="small" color="success" label="Active" />
                )}
              </TableCell>
              <TableCell align="right">
                {!device.revoked_at && (
                  <Button color="error" size="small" onClick={() => onRevoke(device)} aria-label={`Revoke ${device.name}`}>
                    Revoke
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
          {devices?.length === 0 && (
            <TableRow>
              <TableCell colSpan={5} align="center" sx={{ color: 'text.secondary', py: 3 }}>
                No scanner devices yet.
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The new device's key, shown this once; open while `device` is set. */
function DeviceKeyDialog({ device, onClose }: { device: CreatedScannerDevice | null; onClose: () => void }) {
  return (
    <SecretShownOnceDialog
      secret={device?.key ?? null}
      title={<>Key for {device?.name}</>}
      text="Enter this key in the scanner now. It is shown only this once; if it is lost, revoke the device and add it again."
      name="device_key"
      label="Device key"
      noun="key"
      onClose={onClose}
    />
  );
}

/** Asks before revoking `device` (open while it is set), then revokes it and closes. */
function RevokeDeviceDialog({ device, onClose }: { device: ScannerDevice | null; onClose: () => void }) {
  const revoke = useRevokeScannerDevice();
  const showSnackbar = useSnackbar();
  return (
    <Dialog open={device !== null} onClose={onClose} aria-labelledby="device-revoke-title">
      <DialogTitle id="device-revoke-title">Revoke {device?.name}?</DialogTitle>
      <DialogContent>
        <DialogContentText>The scanner&apos;s key stops working at once. Scans it already sent are kept.</DialogContentText>
        {revoke.isError && (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {errorMessage(revoke.error)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          color="error"
          variant="contained"
          disabled={revoke.isPending}
          onClick={() =>
            device &&
            revoke.mutate(device.id, {
              onSuccess: (revoked) => {
                onClose();
                showSnackbar(`${revoked.name} revoked`);
              },
            })
          }
        >
          Revoke
        </Button>
      </DialogActions>
    </Dialog>
  );
}
