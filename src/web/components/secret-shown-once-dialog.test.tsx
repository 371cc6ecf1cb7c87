import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../../tests/support/render-web.js';
import { SecretShownOnceDialog } from './secret-shown-once-dialog.js';

/** A scanner's key or a one-time password: shown once, copied with a word of confirmation, gone after Done. */

function Shown() {
  const [secret, setSecret] = useState<string | null>('K3Y-5ECRET');
  return <SecretShownOnceDialog secret={secret} title="Key for Gate 1" text="Enter this key in the scanner now." name="device_key" label="Device key" noun="key" onClose={() => setSecret(null)} />;
}

describe('a secret shown once', () => {
  it('shows the secret read-only, copies it and says so, and is gone after Done', async () => {
    const user = userEvent.setup();
    renderScreen(<Shown />);
    const dialog = await screen.findByRole('dialog', { name: 'Key for Gate 1' });
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Device key' });
    expect(field.value).toBe('K3Y-5ECRET');
    expect(field.readOnly).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Copy key' }));
    expect(await navigator.clipboard.readText()).toBe('K3Y-5ECRET');
    await screen.findByText('Key copied.');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(screen.queryByDisplayValue('K3Y-5ECRET')).toBeNull();
  });
});
