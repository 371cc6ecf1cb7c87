import { Suspense, useId, useState, type ReactNode } from 'react';
import MenuIcon from '@mui/icons-material/Menu';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageSpinner } from '../components/page-spinner.js';
import { useSession } from '../lib/session.js';
import { ADMIN_MENU_GROUPS, findMenuEntry, menuFor, type AdminMenuEntry, type AdminMenuGroup } from '../components/admin-menu-entry.js';

/** A menu choice older than this is a reload of the page, not a click (Export Data starts on the click). */
const SELECTION_FRESH_MS = 5_000;

/**
 * The admin area (/admin/dashboard, docs/requirements.md R11): the side menu and the chosen option's screen. The
 * choice lives in the address (?view=…), so reloading or going back keeps it. Wide screens show
 * the menu beside the screen; narrow ones open it in a drawer from the Menu button. The menu's
 * entries come from the route wiring (app/admin-menu.tsx), narrowed to what the person's role may
 * use (the session's `permissions`).
 */
export function AdminDashboardPage({ menu: wholeMenu }: { menu: readonly AdminMenuEntry[] }) {
  const session = useSession();
  const menu = menuFor(wholeMenu, session.data?.user?.permissions ?? []);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const active = findMenuEntry(menu, params.get('view'));
  const state = location.state as { selectedAt?: number } | null;
  const selectedAt = state?.selectedAt !== undefined && Date.now() - state.selectedAt < SELECTION_FRESH_MS ? state.selectedAt : undefined;

  const select = (entry: AdminMenuEntry) => {
    setDrawerOpen(false);
    void navigate({ search: entry.id === menu[0]!.id ? '' : `?view=${entry.id}` }, { state: { selectedAt: Date.now() } });
  };
  const Screen = active.screen;

  return (
    <Box sx={{ display: 'grid', gap: { xs: 2, md: 3 }, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '240px minmax(0, 1fr)' }, alignItems: 'start' }}>
      {/* One menu shows: beside the screen when wide, behind the Menu button on a phone. CSS
          breakpoints choose, so the page the server renders is right at every width (D103). */}
      <Box sx={{ display: { xs: 'block', md: 'none' } }}>
        <Button variant="outlined" startIcon={<MenuIcon aria-hidden />} onClick={() => setDrawerOpen(true)} aria-haspopup="true" aria-expanded={drawerOpen}>
          Menu: {active.label}
        </Button>
        <Drawer open={drawerOpen} onClose={() => setDrawerOpen(false)} slotProps={{ paper: { sx: { width: 280 } } }}>
          <AdminMenu menu={menu} active={active} onSelect={select} />
        </Drawer>
      </Box>
      <Paper variant="outlined" sx={{ position: 'sticky', top: 80, display: { xs: 'none', md: 'block' } }}>
        <AdminMenu menu={menu} active={active} onSelect={select} />
      </Paper>
      <Box sx={{ minWidth: 0 }}>
        <Suspense fallback={<PageSpinner />}>
          <Screen key={active.id} {...(selectedAt !== undefined ? { selectedAt } : {})} />
        </Suspense>
      </Box>
    </Box>
  );
}

interface AdminMenuProps {
  menu: readonly AdminMenuEntry[];
  active: AdminMenuEntry;
  onSelect: (entry: AdminMenuEntry) => void;
}

/** The menu in order; entries of a group sit indented under its heading, where its first entry is. */
function AdminMenu({ menu, active, onSelect }: AdminMenuProps) {
  // The side menu and the phone's drawer are both in the page when the drawer opens: ids of their own.
  const headingId = useId();
  const items: ReactNode[] = [];
  const seenGroups = new Set<AdminMenuGroup>();
  for (const entry of menu) {
    if (entry.group && seenGroups.has(entry.group)) continue;
    if (entry.group) {
      const group = entry.group;
      seenGroups.add(group);
      const heading = ADMIN_MENU_GROUPS[group];
      const members = menu.filter((e) => e.group === group);
      items.push(
        <ListItem key={`group-${group}`} sx={{ py: 0.5 }}>
          <ListItemIcon sx={{ color: 'text.secondary' }} aria-hidden>
            {heading.icon}
          </ListItemIcon>
          <ListItemText primary={heading.label} slotProps={{ primary: { id: `${headingId}-${group}`, sx: { fontWeight: 600 } } }} />
        </ListItem>,
        <ListItem key={`list-${group}`} disablePadding>
          <List disablePadding sx={{ width: '100%' }} aria-labelledby={`${headingId}-${group}`}>
            {members.map((member) => (
              <AdminMenuButton key={member.id} entry={member} selected={member.id === active.id} onSelect={onSelect} nested />
            ))}
          </List>
        </ListItem>,
      );
      continue;
    }
    items.push(<AdminMenuButton key={entry.id} entry={entry} selected={entry.id === active.id} onSelect={onSelect} />);
  }
  return (
    <Box component="nav" aria-label="Admin menu">
      <List>{items}</List>
    </Box>
  );
}

function AdminMenuButton({ entry, selected, onSelect, nested = false }: { entry: AdminMenuEntry; selected: boolean; onSelect: (entry: AdminMenuEntry) => void; nested?: boolean }) {
  return (
    <ListItem disablePadding>
      <ListItemButton selected={selected} aria-current={selected ? 'page' : undefined} onClick={() => onSelect(entry)} sx={{ pl: nested ? 4 : 2 }}>
        <ListItemIcon sx={{ color: selected ? 'primary.main' : 'text.secondary' }} aria-hidden>
          {entry.icon}
        </ListItemIcon>
        <ListItemText primary={entry.label} />
      </ListItemButton>
    </ListItem>
  );
}
