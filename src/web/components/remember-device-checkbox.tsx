import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';

/**
 * "Keep me signed in on this device", unticked by default (D47): unticked, the
 * session ends when the browser closes, so a shared or school computer does not stay signed in.
 */
export function RememberDeviceCheckbox({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <FormControlLabel
      sx={{ mt: 1 }}
      control={<Checkbox name="remember" checked={checked} onChange={(event) => onChange(event.target.checked)} />}
      label="Keep me signed in on this device"
    />
  );
}
