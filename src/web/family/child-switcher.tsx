import { useEffect } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { rememberChild } from '../lib/family-child.js';
import { studentShownTo, useSession } from '../lib/session.js';
import { childName } from './family-children.js';
import { FAMILY_CHILDREN_PATH } from './family-paths.js';
import { useFamilyChildren } from './family.api.js';

/**
 * The family account's strip under the app bar: whose record is open, as a choice of
 * the linked children ("Jaden Ramdass · Form 1 1A"), and My children. Choosing a child opens the
 * same screen for that child (`?student=ID`, as staff name a student) and remembers the choice for
 * the tab, so the dashboard's cards and the registration steps keep it. With no child linked it
 * shows nothing: the screen below says so once, with "Add a child" (D76).
 */
export function ChildSwitcher() {
  const user = useSession().data?.user ?? null;
  const children = useFamilyChildren(user?.role === 'guardian');
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const childIds = user?.child_ids ?? [];
  const shownId = studentShownTo(user, params);
  const named = params.get('student');
  const namedIsLinked = named !== null && childIds.includes(named);

  // An address that names a linked child (a link from My children, a reload) makes it the tab's choice.
  useEffect(() => {
    if (named !== null && namedIsLinked) rememberChild(named);
  }, [named, namedIsLinked]);

  // No child linked: the dashboard and each child's screen say so themselves, once (D76).
  if (user?.role !== 'guardian' || shownId === null) return null;

  const choose = (studentId: string) => {
    rememberChild(studentId);
    const search = new URLSearchParams(params);
    search.set('student', studentId);
    void navigate({ pathname: location.pathname, search: `?${search.toString()}` });
  };

  // The names come with the children's list; until then (or for a child just linked) the IDs stand in.
  const options: { id: string; name: string; className: string | null }[] = childIds.map((id) => {
    const child = children.data?.find((candidate) => candidate.student_id === id);
    return { id, name: child ? childName(child) : `Student ${id}`, className: child?.class_name ?? null };
  });
  if (shownId !== null && !childIds.includes(shownId)) options.push({ id: shownId, name: `Student ${shownId} (not linked to you)`, className: null });

  return (
    <Box sx={{ bgcolor: 'background.paper', color: 'text.primary', borderBottom: 1, borderColor: 'divider' }} data-testid="family-bar">
      <Container maxWidth="lg" sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 1 }}>
        <TextField
          select
          size="small"
          margin="none"
          label="Whose record"
          name="child"
          value={shownId}
          onChange={(event) => choose(event.target.value)}
          // A long name and class wrap rather than hide behind an ellipsis: whose record is open is
          // always readable (the class twice outweighs the Select's own nowrap rule).
          sx={{ flexGrow: 1, minWidth: 0, maxWidth: 420, '& .MuiSelect-select.MuiSelect-select': { whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
        >
          {options.map((option) => (
            <MenuItem key={option.id} value={option.id}>
              {/* "Jaden Ramdass · Form 1 1A", as childLabel writes it; on a narrow screen the class wraps as a whole. */}
              {option.name}
              {option.className && (
                <>
                  {' '}
                  <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                    · {option.className}
                  </Box>
                </>
              )}
            </MenuItem>
          ))}
        </TextField>
        <Button component={RouterLink} to={FAMILY_CHILDREN_PATH} size="small" sx={{ flexShrink: 0, ml: 'auto' }}>
          My children
        </Button>
      </Container>
    </Box>
  );
}
