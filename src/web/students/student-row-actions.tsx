import { useId, useRef, useState, type KeyboardEvent, type ReactElement, type SyntheticEvent } from 'react';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';

/** One action of a student's row: its short label (tooltip, menu text) and the name that says whose row it is. */
export interface StudentRowAction {
  key: string;
  /** What the tooltip and the phone menu show: "Edit". */
  label: string;
  /** The accessible name, naming the student: "Edit Campbell, Jordan" (WCAG 2.5.3: it contains the label). */
  name: string;
  icon: ReactElement;
  onClick: () => void;
}

interface Props {
  actions: readonly StudentRowAction[];
  /** 'Campbell, Jordan': names the phone menu's button. */
  studentName: string;
  /** On a phone the actions fold into one menu, so the row fits the screen. */
  folded: boolean;
  /** The grid's roving tab stop for this cell (0 while the cell has the focus, else -1). */
  tabIndex: 0 | -1;
}

/** Events from the portalled menu would bubble (through React) into the grid's cell and move its focus. */
const keepInMenu = (event: SyntheticEvent) => event.stopPropagation();

/**
 * The actions cell of the admin student list: an icon button per action with a tooltip, or on a
 * phone one "Actions for {name}" button with the actions in a menu. The grid's built-in actions
 * cell names its phone button "more" for every row and has no tooltips, so the list draws its own
 *. Left and right arrows move between the buttons, as in the grid's own cell;
 * at either end the grid moves to the next cell.
 */
export function StudentRowActions({ actions, studentName, folded, tabIndex }: Props) {
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const rowRef = useRef<HTMLDivElement>(null);

  if (folded) {
    const label = `Actions for ${studentName}`;
    return (
      <>
        <Tooltip title="Actions">
          <IconButton
            size="small"
            aria-label={label}
            aria-haspopup="menu"
            aria-expanded={menuAnchor !== null}
            aria-controls={menuAnchor ? menuId : undefined}
            tabIndex={tabIndex}
            onClick={(event) => {
              event.stopPropagation();
              setMenuAnchor(event.currentTarget);
            }}
          >
            <MoreVertIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Box component="span" onKeyDown={keepInMenu} onClick={keepInMenu} onMouseDown={keepInMenu}>
          <Menu
            id={menuId}
            anchorEl={menuAnchor}
            open={menuAnchor !== null}
            onClose={() => setMenuAnchor(null)}
            slotProps={{ list: { 'aria-label': label } }}
            anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
            transformOrigin={{ vertical: 'top', horizontal: 'right' }}
          >
            {actions.map((action) => (
              <MenuItem
                key={action.key}
                aria-label={action.name}
                onClick={() => {
                  setMenuAnchor(null);
                  action.onClick();
                }}
              >
                <ListItemIcon>{action.icon}</ListItemIcon>
                <ListItemText>{action.label}</ListItemText>
              </MenuItem>
            ))}
          </Menu>
        </Box>
      </>
    );
  }

  const moveFocus = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const buttons = Array.from(rowRef.current?.querySelectorAll('button') ?? []);
    const next = buttons.indexOf(document.activeElement as HTMLButtonElement) + (event.key === 'ArrowRight' ? 1 : -1);
    if (next < 0 || next >= buttons.length) return;
    event.preventDefault();
    event.stopPropagation();
    buttons[next]!.focus();
  };

  return (
    <Box ref={rowRef} role="group" aria-label={`Actions for ${studentName}`} onKeyDown={moveFocus} sx={{ display: 'flex', alignItems: 'center' }}>
      {actions.map((action, index) => (
        <Tooltip key={action.key} title={action.label}>
          <IconButton size="small" aria-label={action.name} tabIndex={index === 0 ? tabIndex : -1} onClick={action.onClick}>
            {action.icon}
          </IconButton>
        </Tooltip>
      ))}
    </Box>
  );
}
