import { useMemo } from 'react';
import { DataGrid, GRID_CHECKBOX_SELECTION_COL_DEF, type GridColDef, type GridPaginationModel, type GridRowSelectionModel, type GridSortModel } from '@mui/x-data-grid';
import { STUDENT_PAGE_SIZES, listName, type AdminStudent } from '../../shared/admin.schemas.js';
import { StudentRowActions, type StudentRowAction } from './student-row-actions.js';

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
  /** The rows ticked for a bulk action (bulk-actions.tsx); absent when the person may take none. Former students cannot be ticked. */
  selection?: { model: GridRowSelectionModel; onChange: (model: GridRowSelectionModel) => void } | undefined;
}

/**
 * The student list's grid (MUI X Data Grid): ID, Name ('Last, First'), Class, Date of Birth, Birth
 * Certificate Pin and Actions. Its own module, loaded after the list's search, filters and total
 * have painted (the grid is most of the list's code: D64), so a phone sees where to search while the
 * grid arrives. The list (student-list.tsx) holds the rows, the filters and the dialogs.
 */
export default function StudentGrid({ rows, loading, serverMode, rowCount, paginationModel, onPaginationModelChange, sortModel, onSortModelChange, filtered, narrow, actionsOf, actionCount, selection }: StudentGridProps) {
  // On a phone the actions fold into one menu, and the date of birth and pin columns are hidden,
  // so the row (and its actions) fits a 360 px screen without sideways scrolling.
  const ticking = selection !== undefined;
  const columns = useMemo<GridColDef<AdminStudent>[]>(
    () => [
      // The bulk actions' checkboxes, narrower on a phone, where the Name column gives up the rest.
      ...(ticking && narrow ? [{ ...GRID_CHECKBOX_SELECTION_COL_DEF, width: 40 }] : []),
      { field: 'id', headerName: 'ID', width: narrow ? 92 : 110 },
      { field: 'name', headerName: 'Name', flex: 1, minWidth: narrow ? (ticking ? 70 : 80) : 160, valueGetter: (_value, row) => listName(row) },
      { field: 'class_id', headerName: 'Class', width: narrow ? 56 : 80, valueGetter: (_value, row) => (row.left_on ? `Left ${row.left_class ?? ''}`.trim() : row.class_id) },
      { field: 'date_of_birth', headerName: 'Date of Birth', width: 120 },
      { field: 'birth_certificate_no', headerName: 'Birth Certificate Pin', width: 170 },
      {
        field: 'actions',
        headerName: 'Actions',
        width: narrow ? (ticking ? 60 : 72) : 8 + ACTION_WIDTH_PX * actionCount,
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
      checkboxSelection={selection !== undefined}
      {...(selection ? { rowSelectionModel: selection.model, onRowSelectionModelChange: selection.onChange, isRowSelectable: ({ row }: { row: AdminStudent }) => !row.left_on } : {})}
      // Pages come one at a time from a large school's server: rows ticked on another page stay ticked.
      keepNonExistentRowsSelected={serverMode}
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
