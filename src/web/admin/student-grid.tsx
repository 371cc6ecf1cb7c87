import { useMemo } from 'react';
import { DataGrid, type GridColDef, type GridPaginationModel, type GridSortModel } from '@mui/x-data-grid';
import { STUDENT_PAGE_SIZES, listName, type AdminStudent } from '../../shared/admin.schemas.js';
import { StudentRowActions, type StudentRowAction } from './student-row-actions.js';

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
}

/**
 * The student list's grid (MUI X Data Grid): ID, Name ('Last, First'), Class, Date of Birth, Birth
 * Certificate Pin and Actions. Its own module, loaded after the list's search, filters and total
 * have painted (the grid is most of the list's code: D64), so a phone sees where to search while the
 * grid arrives. The list (student-list.tsx) holds the rows, the filters and the dialogs.
 */
export default function StudentGrid({ rows, loading, serverMode, rowCount, paginationModel, onPaginationModelChange, sortModel, onSortModelChange, filtered, narrow, actionsOf, actionCount }: StudentGridProps) {
  // On a phone the actions fold into one menu, and the date of birth and pin columns are hidden,
  // so the row (and its actions) fits a 360 px screen without sideways scrolling.
  const columns = useMemo<GridColDef<AdminStudent>[]>(
    () => [
      // Beside the admin menu at 1280 px the grid is about 850 px wide: the columns fit it with the
      // office's eight row actions (docs/decisions.md D81), the name taking what is left.
      { field: 'id', headerName: 'ID', width: 92 },
      { field: 'name', headerName: 'Name', flex: 1, minWidth: narrow ? 80 : 130, valueGetter: (_value, row) => listName(row) },
      { field: 'class_id', headerName: 'Class', width: narrow ? 56 : 72, valueGetter: (_value, row) => (row.left_on ? `Left ${row.left_class ?? ''}`.trim() : row.class_id) },
      { field: 'date_of_birth', headerName: 'Date of Birth', width: 112 },
      { field: 'birth_certificate_no', headerName: 'Birth Certificate Pin', width: 136 },
      {
        field: 'actions',
        headerName: 'Actions',
        width: narrow ? 72 : CELL_PADDING_PX + ACTION_WIDTH_PX * actionCount,
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
      columnVisibilityModel={narrow ? { date_of_birth: false, birth_certificate_no: false } : {}}
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
