import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useRouteError } from 'react-router';
import { MAIN_CONTENT_ID } from './main-content.js';

/** Shown when a screen fails to load or render; a new release is the usual cause, so offer a reload. */
export function RouteErrorPage() {
  const error = useRouteError();
  console.error(error);
  return (
    <Container component="main" id={MAIN_CONTENT_ID} maxWidth="sm" sx={{ py: 6 }}>
      <Paper variant="outlined" sx={{ p: 4 }}>
        <Typography variant="h1">Something went wrong</Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          This screen could not be shown. Reloading the page usually fixes it.
        </Typography>
        <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
          <Button variant="contained" onClick={() => window.location.reload()}>
            Reload
          </Button>
          <Button href="/">Go to the start page</Button>
        </Stack>
      </Paper>
    </Container>
  );
}
