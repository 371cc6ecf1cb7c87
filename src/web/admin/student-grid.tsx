import { useMemo } from 'react';
import { DataGrid, type GridColDef, type GridComparatorFn, type GridPaginationModel, type GridSortCellParams, type GridSortModel } from '@mui/x-data-grid';
import {
  REGISTRATION_STATES,
  REGISTRATION_STATE_LABELS,
  STUDENT_PAGE_SIZES,
  compareByClassThenName,
  fullListName,
  listName,
  type AdminStudent,
} from '../../shared/admin.schemas.js';
import { StudentRowActions, type StudentRowAction } from './student-row-actions.js';

/** The row a sort compares (a small school's list sorts in the page). */
const rowOf = (cell: GridSortCellParams): AdminStudent => (cell.api as { getRow: (id: unknown) => AdminStudent }).getRow(cell.id);

/** The Class column sorts by class, then by the names in it (as the server does). */
const byClassThenName = (direction: 'asc' | 'desc'): GridComparatorFn => (_a, _b, cellA, cellB) => compareByClassThenName(rowOf(cellA), rowOf(cellB), direction);

/** The Registration column sorts in the stages' order, not by its words. */
const byRegistrationStage: GridComparatorFn = (_a, _b, cellA, cellB) => REGISTRATION_STATES.indexOf(rowOf(cellA).registration) - REGISTRATION_STATES.indexOf(rowOf(cellB).registration);

/** On a phone only ID, Name, Class and the actions show, so a row fits 360 px without sideways scrolling. */
const PHONE_HIDDEN = { date_of_birth: false, birth_certificate_no: false, sex: false, registration: false } as const;

/** One row action button's width in the grid (an icon button and its gap). */
const ACTION_WIDTH_PX = 34;

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
}

/**
 * The student list's grid (MUI X Data Grid): ID, Name ('Last, First Middle'), Class, Date of Birth,
 * Birth Certificate Pin, Sex, Registration and Actions; by class, then name, until sorted otherwise
 * (docs/decisions.md D82). Its own module, loaded after the list's search, filters and total
 * have painted (the grid is most of the list's code: D64), so a phone sees where to search while the
 * grid arrives. The list (student-list.tsx) holds the rows, the filters and the dialogs.
 */
export default function StudentGrid({ rows, loading, serverMode, rowCount, paginationModel, onPaginationModelChange, sortModel, onSortModelChange, filtered, narrow, actionsOf, actionCount }: StudentGridProps) {
  // On a phone the actions fold into one menu, and the date of birth, pin, sex and registration
  // columns are hidden, so the row (and its actions) fits a 360 px screen without sideways scrolling.
  const columns = useMemo<GridColDef<AdminStudent>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: narrow ? 92 : 110 },
      { field: 'name', headerName: 'Name', flex: 1, minWidth: narrow ? 80 : 160, valueGetter: (_value, row) => fullListName(row) },
      {
        field: 'class_id',
        headerName: 'Class',
        width: narrow ? 64 : 80,
        valueGetter: (_value, row) => (row.left_on ? `Left ${row.left_class ?? ''}`.trim() : row.class_id),
        getSortComparator: (direction) => byClassThenName(direction === 'desc' ? 'desc' : 'asc'),
      },
      { field: 'date_of_birth', headerName: 'Date of Birth', width: 120 },
      { field: 'birth_certificate_no', headerName: 'Birth Certificate Pin', width: 160 },
      { field: 'sex', headerName: 'Sex', width: 80 },
      {
        field: 'registration',
        headerName: 'Registration',
        width: 120,
        valueGetter: (_value, row) => REGISTRATION_STATE_LABELS[row.registration],
        sortComparator: byRegistrationStage,
      },
      {
        field: 'actions',
        headerName: 'Actions',
        width: narrow ? 72 : 8 + ACTION_WIDTH_PX * actionCount,
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
    [narrow, actionsOf, actionCount],
  );

  return (
    <DataGrid
      aria-label="Students"
      rows={rows}
      columns={columns}
      loading={loading}
      density="compact"
      disableRowSelectionOnClick
      disableColumnMenu={narrow}
      columnVisibilityModel={narrow ? PHONE_HIDDEN : {}}
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
