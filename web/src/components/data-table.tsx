import {
  Button,
  Paper,
  type SxProps,
  Table,
  TableBody,
  TableCell,
  type TableCellProps,
  TableContainer,
  TableHead,
  TableRow,
  type Theme,
} from '@mui/material';
import { type Key, type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiErrorMessage } from '../lib/use-api-error.ts';
import { useFillBox } from '../lib/use-fill-box.ts';
import { Spinner } from './spinner.tsx';

/** SPEC 9: the next page loads within 100 px of the bottom. */
export const LOAD_MORE_THRESHOLD_PX = 100;

export interface Column<T> {
  id: string;
  label: ReactNode;
  align?: TableCellProps['align'];
  /** Cell styles of the column (width, ellipsis...). */
  sx?: TableCellProps['sx'];
  render: (row: T) => ReactNode;
  /** Hidden on screens narrower than this breakpoint (secondary columns on phones). */
  hideBelow?: 'sm' | 'md';
}

const visibility = <T,>(column: Column<T>) => (column.hideBelow ? { display: { xs: 'none', [column.hideBelow]: 'table-cell' } } : {});

interface DataTableProps<T> {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => Key;
  /** The first page is loading. */
  pending: boolean;
  error?: unknown;
  /** Infinite scroll: called near the bottom while there is more to load. */
  hasMore?: boolean;
  loadingMore?: boolean;
  onLoadMore?: () => void;
  /**
   * A bounded height scrolls inside the table under a sticky header (infinite lists). `'none'` lets a
   * short list grow with its rows and the page scroll, with a plain header as there is nothing to stick in.
   */
  maxHeight?: string;
  'data-testid'?: string;
  /** A data-testid for each row (tests find a row by its record). */
  rowTestId?: (row: T) => string;
  /** Styles of a row from its record (SPEC 4 "Invoice": overdue rows are tinted). */
  rowSx?: (row: T) => SxProps<Theme> | undefined;
  /** What an empty list says instead of "No records": what to do next (issue 25), see EmptyTableHint. */
  empty?: ReactNode;
}

/**
 * The list screens' table: a header, the rows, and one full-width row for loading, error or
 * "no records". With `onLoadMore` it is an infinite list that asks for the next page near the end.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  pending,
  error,
  hasMore,
  loadingMore,
  onLoadMore,
  maxHeight = 'calc(100vh - 220px)',
  'data-testid': testId,
  rowTestId,
  rowSx,
  empty,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const errorText = useApiErrorMessage();
  const span = columns.length;

  // Next page on a scroll near the end, and while the rows do not fill the box (a tall screen); then a button.
  const box = useRef<HTMLDivElement>(null);
  const fill = useFillBox(box, {
    rows: rows.length,
    hasMore: Boolean(onLoadMore && hasMore && !pending),
    loading: Boolean(loadingMore),
    load: () => onLoadMore?.(),
    nextPagePx: LOAD_MORE_THRESHOLD_PX,
  });

  return (
    <TableContainer ref={box} component={Paper} variant="outlined" sx={{ maxHeight }} onScroll={fill.onScroll} data-testid={testId}>
      <Table stickyHeader={maxHeight !== 'none'} size="small">
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column.id} align={column.align} sx={visibility(column)}>
                {column.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={rowKey(row)} hover data-testid={rowTestId?.(row)} sx={rowSx?.(row)}>
              {columns.map((column) => (
                <TableCell
                  key={column.id}
                  align={column.align}
                  sx={[visibility(column), ...(Array.isArray(column.sx) ? column.sx : [column.sx])]}
                >
                  {column.render(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
          {(pending || loadingMore) && (
            <TableRow>
              <TableCell colSpan={span} align="center">
                <Spinner size={24} />
              </TableCell>
            </TableRow>
          )}
          {Boolean(error) && !pending && (
            <TableRow>
              <TableCell colSpan={span} align="center" sx={{ color: 'error.main' }}>
                {errorText(error)}
              </TableCell>
            </TableRow>
          )}
          {fill.showButton && (
            <TableRow>
              <TableCell colSpan={span} align="center">
                <Button size="small" onClick={() => onLoadMore?.()} data-testid="data-table-more">
                  {t('common.loadMore')}
                </Button>
              </TableCell>
            </TableRow>
          )}
          {!pending && !error && rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={span} align="center" sx={{ color: 'text.secondary' }}>
                {empty ?? t('common.noRecords')}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
