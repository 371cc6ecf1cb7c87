import { useMemo } from 'react';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  DataGrid,
  GRID_CHECKBOX_SELECTION_COL_DEF,
  type GridColDef,
  type GridComparatorFn,
  type GridPaginationModel,
  type GridRowSelectionModel,
  type GridSortCellParams,
  type GridSortModel,
} from '@mui/x-data-grid';
import {
  REGISTRATION_STATES,
  REGISTRATION_STATE_LABELS,
  STUDENT_PAGE_SIZES,
  compareByClassThenName,
  fullListName,
  listName,
  type AdminStudent,
} from '../../shared/students.schemas.js';
import { StudentRowActions, type StudentRowAction } from './student-row-actions.js';

/** The row a sort compares (a small school's list sorts in the page). */
const rowOf = (cell: GridSortCellParams): AdminStudent => (cell.api as { getRow: (id: unknown) => AdminStudent }).getRow(cell.id);

/** The Class column sorts by class, then by the names in it (as the server does). */
const byClassThenName = (direction: 'asc' | 'desc'): GridComparatorFn => (_a, _b, cellA, cellB) => compareByClassThenName(rowOf(cellA), rowOf(cellB), direction);

/** The Registration column sorts in the stages' order, not by its words. */
const byRegistrationStage: GridComparatorFn = (_a, _b, cellA, cellB) => REGISTRATION_STATES.indexOf(rowOf(cellA).registration) - REGISTRATION_STATES.indexOf(rowOf(cellB).registration);

/** On a phone only ID, Name, Class and the actions show, so a row fits 360 px without sideways scrolling. */
const PHONE_HIDDEN = { date_of_birth: false, birth_certificate_no: false, sex: false, registration: false } as const;

/**
 * Below a wide screen (1280 px: the grid beside the admin menu is about 850 px) the date of birth
 * and the pin give their room to the row's actions, which must stay inside the grid; the search
 * box still finds a student by either (docs/decisions.md D82).
 */
const MEDIUM_HIDDEN = { date_of_birth: false, birth_certificate_no: false } as const;

/** One row action button's width in the grid (a small icon button: 24 px icon, 5 px padding each side). */
const ACTION_WIDTH_PX = 34;
/** The grid cell's own padding, left and right (10 px each): the buttons sit inside it, so the column counts it. */
const CELL_PADDING_PX = 20;

export interface StudentGridProps {
  rows: readonly AdminStudent[];
  loading: boolean;
  /** Past the school's threshold the server pages, sorts and filters; `rowCount` is then its count. */
  serverMode: boolean;
  rowCount: number;
  paginationModel: GridPaginationModel;
  onPaginationModelChange: (model: GridPaginationModel) => void;
  sortModel: GridSortModel;
  onSortModelChange: (model: GridSortModel) => void;
  /** A search or filter is on: the empty list says no student matches. */
  filtered: boolean;
  /** A phone: the actions fold into one menu and two columns hide. */
  narrow: boolean;
  /** A row's actions, the same number for every row (`actionCount`). */
  actionsOf: (row: AdminStudent) => StudentRowAction[];
  actionCount: number;
  /** The rows ticked for a bulk action (bulk-actions.tsx); absent when the person may take none. Former students cannot be ticked. */
  selection?: { model: GridRowSelectionModel; onChange: (model: GridRowSelectionModel) => void } | undefined;
}

/**
 * The student list's grid (MUI X Data Grid): ID, Name ('Last, First Middle'), Class, Date of Birth,
 * Birth Certificate Pin, Sex, Registration and Actions; by class, then name, until sorted otherwise
 * (docs/decisions.md D82). Its own module, loaded after the list's search, filters and total
 * have painted (the grid is most of the list's code: D64), so a phone sees where to search while the
 * grid arrives. The list (student-list.tsx) holds the rows, the filters and the dialogs.
 */
export default function StudentGrid({ rows, loading, serverMode, rowCount, paginationModel, onPaginationModelChange, sortModel, onSortModelChange, filtered, narrow, actionsOf, actionCount, selection }: StudentGridProps) {
  // On a phone the actions fold into one menu, and the date of birth, pin, sex and registration
  // columns are hidden, so the row (and its actions) fits a 360 px screen without sideways scrolling.
  const wide = useMediaQuery('(min-width: 1440px)');
  const ticking = selection !== undefined;
  const columns = useMemo<GridColDef<AdminStudent>[]>(
    () => [
      // The bulk actions' checkboxes (D83), narrower on a phone, where the Name column gives up the rest.
      ...(ticking && narrow ? [{ ...GRID_CHECKBOX_SELECTION_COL_DEF, width: 40 }] : []),
      // Beside the admin menu at 1280 px the grid is about 850 px wide: the columns fit it with the
      // office's row actions (docs/decisions.md D81, D82), the name taking what is left.
      { field: 'id', headerName: 'ID', width: 92 },
      { field: 'name', headerName: 'Name', flex: 1, minWidth: narrow ? (ticking ? 70 : 80) : 110, valueGetter: (_value, row) => fullListName(row) },
      {
        field: 'class_id',
        headerName: 'Class',
        width: narrow ? 56 : 72,
        valueGetter: (_value, row) => (row.left_on ? `Left ${row.left_class ?? ''}`.trim() : row.class_id),
        getSortComparator: (direction) => byClassThenName(direction === 'desc' ? 'desc' : 'asc'),
      },
      { field: 'date_of_birth', headerName: 'Date of Birth', width: 112 },
      { field: 'birth_certificate_no', headerName: 'Birth Certificate Pin', width: 136 },
      { field: 'sex', headerName: 'Sex', width: 56 },
      {
        field: 'registration',
        headerName: 'Registration',
        width: 104,
        valueGetter: (_value, row) => REGISTRATION_STATE_LABELS[row.registration],
        sortComparator: byRegistrationStage,
      },
      {
        field: 'actions',
        headerName: 'Actions',
        width: narrow ? (ticking ? 60 : 72) : CELL_PADDING_PX + ACTION_WIDTH_PX * actionCount,
        sortable: false,
        filterable: false,
        hideable: false,
        disableColumnMenu: true,
        disableExport: true,
        align: 'center',
        headerAlign: 'center',
        renderCell: ({ row, tabIndex }) => <StudentRowActions actions={actionsOf(row)} studentName={listName(row) || row.id} folded={narrow} tabIndex={tabIndex} />,
      },
    ],
    [narrow, ticking, actionsOf, actionCount],
  );

  return (
    <DataGrid
      aria-label="Students"
      rows={rows}
      columns={columns}
      loading={loading}
      density="compact"
      disableRowSelectionOnClick
      checkboxSelection={ticking}
      {...(selection ? { rowSelectionModel: selection.model, onRowSelectionModelChange: selection.onChange, isRowSelectable: ({ row }: { row: AdminStudent }) => !row.left_on } : {})}
      // Pages come one at a time from a large school's server: rows ticked on another page stay ticked.
      keepNonExistentRowsSelected={serverMode}
      disableColumnMenu={narrow}
      columnVisibilityModel={narrow ? PHONE_HIDDEN : wide ? {} : MEDIUM_HIDDEN}
      paginationModel={paginationModel}
      onPaginationModelChange={onPaginationModelChange}
      sortModel={sortModel}
      onSortModelChange={onSortModelChange}
      pageSizeOptions={[...STUDENT_PAGE_SIZES]}
      // Past the threshold the server pages, sorts and filters (the search box and the two
      // filters above are the list's filters; the column menu's own filter has no server side).
      paginationMode={serverMode ? 'server' : 'client'}
      sortingMode={serverMode ? 'server' : 'client'}
      filterMode={serverMode ? 'server' : 'client'}
      disableColumnFilter={serverMode}
      {...(serverMode ? { rowCount } : {})}
      localeText={{ noRowsLabel: filtered ? 'No student matches the search.' : 'No students yet.' }}
    />
  );
}
