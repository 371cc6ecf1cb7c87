import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

/** A student screen opened by a family account with no child linked yet: says so and offers to add one. */
export function NoChildLinked({ title }: { title: string }) {
  return (
    <>
      <Typography variant="h1">{title}</Typography>
      <Alert
        severity="info"
        sx={{ mt: 2 }}
        action={
          <Button component={RouterLink} to="/family/children" color="inherit" size="small">
            Add a child
          </Button>
        }
      >
        No child is linked to your account yet.
      </Alert>
    </>
  );
}
