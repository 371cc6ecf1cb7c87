import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { NavigationType, useNavigationType } from 'react-router';
import {
  DEFAULT_STUDENT_SORT,
  REGISTRATION_STATES,
  STUDENT_PAGE_SIZES,
  STUDENT_SORT_FIELDS,
  matchesStudentFilter,
  type RegistrationState,
  type StudentListFilter,
  type StudentListPageRequest,
  type StudentSortField,
} from '../../shared/students.schemas.js';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { firstClassOf } from '../lib/staff-access.js';
import { useDebouncedValue } from '../lib/use-debounced-value.js';
import { useStudentPage, useStudents } from './students.api.js';

/** The student list's search and filters, and the rows they choose: from the server a page at a time, or all of them here. */

export interface KeptFilters {
  search: string;
  classId: string;
  registration: RegistrationState | '';
}

/**
 * The search and filters the list had when a row action left it for a student's screen. They come
 * back when the person returns by going back (a "pop": the Back to students button or the
 * browser's back), not when the list is chosen afresh from the menu. In the tab's sessionStorage,
 * which sign-out clears.
 */
export const KEPT_FILTERS_KEY = 'portal.studentList.filters';

function readKeptFilters(): KeptFilters | null {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(KEPT_FILTERS_KEY) ?? 'null') as Partial<KeptFilters> | null;
    if (!kept) return null;
    const registration = REGISTRATION_STATES.find((state) => state === kept.registration) ?? '';
    return { search: String(kept.search ?? ''), classId: String(kept.classId ?? ''), registration };
  } catch {
    return null;
  }
}

/** How long the search waits for typing to pause before a large school's list asks the server. */
const SERVER_SEARCH_DELAY_MS = 300;

/** The server's sort for the grid's sort model: a sortable column, or the list's own order (class, then name: D82). */
function serverSortOf(model: GridSortModel): Pick<StudentListPageRequest, 'sort' | 'direction'> {
  const first = model[0];
  const sort = STUDENT_SORT_FIELDS.find((field): field is StudentSortField => field === first?.field);
  return sort && first?.sort ? { sort, direction: first.sort } : { ...DEFAULT_STUDENT_SORT };
}

/** The grid opens sorted by class (then name), its arrow on the Class column saying so (D82). */
const DEFAULT_SORT_MODEL: GridSortModel = [{ field: DEFAULT_STUDENT_SORT.sort, sort: DEFAULT_STUDENT_SORT.direction }];

export function useStudentListData(user: SessionUser | null) {
  // Former students (a year rollover's leavers, D60) are left out unless asked for.
  const [withFormer, setWithFormer] = useState(false);
  const navigationType = useNavigationType();
  // Back from a student's screen, the list shows the search and filters it had.
  const [kept] = useState(() => (navigationType === NavigationType.Pop ? readKeptFilters() : null));
  const [search, setSearch] = useState(kept?.search ?? '');
  const deferredSearch = useDeferredValue(search);
  // One class of their own needs no filter: the list holds only it.
  const [classId, setClassId] = useState(() => kept?.classId ?? ((user?.class_ids.length ?? 0) > 1 ? firstClassOf(user) : ''));
  const [registration, setRegistration] = useState<RegistrationState | ''>(kept?.registration ?? '');
  const filterWith = (text: string): StudentListFilter => ({
    ...(text !== '' ? { search: text } : {}),
    ...(classId !== '' ? { class_id: classId } : {}),
    ...(registration !== '' ? { registration } : {}),
    ...(withFormer ? { former: 'include' as const } : {}),
  });
  const filter = filterWith(deferredSearch.trim());
  const filtered = Object.keys(filter).length > 0;
  const [paginationModel, setPaginationModel] = useState<GridPaginationModel>({ page: 0, pageSize: STUDENT_PAGE_SIZES[0] });
  const [sortModel, setSortModel] = useState<GridSortModel>(DEFAULT_SORT_MODEL);
  // The first page is asked of the server whatever the school's size; its answer says whether the
  // list stays on the server (a large school) or loads whole and works here (a small one).
  const [clientMode, setClientMode] = useState(false);
  const [serverSearch] = useDebouncedValue(search.trim(), SERVER_SEARCH_DELAY_MS);
  const pageRequest: StudentListPageRequest = { ...filterWith(serverSearch), ...serverSortOf(sortModel), page: paginationModel.page, page_size: paginationModel.pageSize };
  const studentPage = useStudentPage(pageRequest, !clientMode);
  const serverMode = !clientMode && studentPage.data?.serverMode === true;
  useEffect(() => {
    if (studentPage.data?.serverMode === false) setClientMode(true);
  }, [studentPage.data?.serverMode]);
  const students = useStudents(withFormer, clientMode);
  // A new search or filter starts at the first page.
  useEffect(() => {
    setPaginationModel((model) => (model.page === 0 ? model : { ...model, page: 0 }));
  }, [serverSearch, classId, registration, withFormer]);

  const clientRows = useMemo(
    () =>
      (students.data ?? []).filter((student) =>
        matchesStudentFilter(student, { search: deferredSearch, ...(classId ? { class_id: classId } : {}), ...(registration ? { registration } : {}) }),
      ),
    [students.data, deferredSearch, classId, registration],
  );
  const rows = serverMode ? (studentPage.data?.rows ?? []) : clientRows;
  const found = serverMode ? (studentPage.data?.total ?? 0) : clientRows.length;
  const loaded = serverMode ? studentPage.data !== undefined : students.data !== undefined;
  const listError = serverMode || !clientMode ? studentPage.error : students.error;
  const total = serverMode ? (studentPage.data?.totalStudents ?? 0) : (students.data?.length ?? 0);
  return {
    search,
    setSearch,
    classId,
    setClassId,
    registration,
    setRegistration,
    withFormer,
    setWithFormer,
    filter,
    filtered,
    paginationModel,
    setPaginationModel,
    sortModel,
    setSortModel,
    serverMode,
    fetching: studentPage.isFetching,
    rows,
    found,
    loaded,
    listError,
    total,
  };
}
