import { createTheme } from '@mui/material/styles';

/**
 * A calm school look: deep navy with a warm gold accent on a soft grey page. Text colours keep
 * at least 4.5:1 contrast on their backgrounds (WCAG 2.1 AA, checked by axe in the e2e tests).
 */
/**
 * The keyboard focus ring (WCAG 2.4.7 and 1.4.11; D47): a 3 px navy outline,
 * ≥ 9:1 against the page grey and white (gold on the navy top bar, 6:1). MUI marks a control
 * `Mui-focusVisible` only when it was reached by keyboard, so a mouse click shows no ring. Controls
 * that fill a clipping box (a card, a menu row, the bottom navigation) draw it inside their edge.
 */
const FOCUS_RING = { outline: '3px solid #1b4a72', outlineOffset: 2 } as const;
const INSET_FOCUS_RING = { '&&.Mui-focusVisible, &&:focus-visible': { outlineOffset: -3 } } as const;

/**
 * A person who has asked their device for less motion (WCAG 2.3.3) gets none of MUI's: no
 * ripple, and dialogs, menus and sections that appear and go at once instead of fading, growing
 * or sliding (MUI's own way: transitions of `none` and of no duration). Progress indicators still
 * turn: they say the portal is working. Read when the page loads.
 */
const reducedMotion = typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
const NO_DURATION = { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 };

export const theme = createTheme({
  ...(reducedMotion ? { transitions: { create: () => 'none', duration: NO_DURATION } } : {}),
  palette: {
    mode: 'light',
    primary: { main: '#1b4a72', dark: '#12344f', light: '#3d6d96', contrastText: '#ffffff' },
    secondary: { main: '#f6c453', dark: '#c99a2e', contrastText: '#1d1d1d' },
    error: { main: '#b3261e' },
    success: { main: '#2e6b34' },
    background: { default: '#f3f5f8', paper: '#ffffff' },
    text: { primary: '#1d2733', secondary: '#4a5563' },
  },
  shape: { borderRadius: 10 },
  typography: {
    // The system font: nothing to download, and no font host for the CSP to allow.
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '1.75rem', fontWeight: 600, lineHeight: 1.25 },
    h2: { fontSize: '1.35rem', fontWeight: 600, lineHeight: 1.3 },
    h3: { fontSize: '1.15rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiButtonBase: { defaultProps: { disableRipple: reducedMotion }, styleOverrides: { root: { '&.Mui-focusVisible, &:focus-visible': FOCUS_RING } } },
    MuiCardActionArea: { styleOverrides: { root: INSET_FOCUS_RING } },
    MuiListItemButton: { styleOverrides: { root: INSET_FOCUS_RING } },
    MuiMenuItem: { styleOverrides: { root: INSET_FOCUS_RING } },
    MuiTab: { styleOverrides: { root: INSET_FOCUS_RING } },
    MuiBottomNavigationAction: { styleOverrides: { root: INSET_FOCUS_RING } },
    MuiAppBar: { styleOverrides: { root: { '& .MuiButtonBase-root.Mui-focusVisible, & .MuiButtonBase-root:focus-visible': { outlineColor: '#f6c453' } } } },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
    MuiLink: { defaultProps: { underline: 'always' } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    MuiPaper: { styleOverrides: { outlined: { borderColor: '#d5dbe3' } } },
  },
});
