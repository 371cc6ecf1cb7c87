/**
 * Column priority for the admin tables on a phone (D46): at 390 px a table shows its first and
 * its action columns without sideways scrolling. Cells get half the usual side padding on a
 * phone, and a column of lower priority is left out there (its facts are in another column, or
 * the desktop shows them).
 */

/** On the Table: half the side padding of every cell below the sm breakpoint (600 px). */
export const PHONE_TABLE_SX = { '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } } as const;

/** On a header and body cell of a column of lower priority: not shown below the sm breakpoint. */
export const HIDE_ON_PHONE_SX = { display: { xs: 'none', sm: 'table-cell' } } as const;
