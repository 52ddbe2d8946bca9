import type { ContactListUploadResult } from '@conversa/functions/contracts/contact-lists';
import Download from '@mui/icons-material/FileDownloadOutlined';
import UploadFile from '@mui/icons-material/UploadFileOutlined';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  Typography,
} from '@mui/material';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSpreadsheet, type ParsedSheet, readSpreadsheet } from '../../../lib/spreadsheet.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { fieldErrors } from '../../../lib/validation.ts';
import { downloadSampleSheet, useImportToContactList } from '../api/list-import.ts';

const SHOWN_INVALID_ROWS = 20;

/**
 * SPEC 2 "List contacts: import spreadsheet (.xls or .xlsx, with confirmation and sample download)":
 * pick a sheet, read it here, confirm with its row count (the sample is one click away), send it in
 * chunks with a progress bar, then say how many were added, already in the list, or refused (and why).
 */
export function ListImport({ contactListId }: { contactListId: number }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [sheet, setSheet] = useState<ParsedSheet | undefined>(undefined);
  const [sent, setSent] = useState(0);
  const [result, setResult] = useState<ContactListUploadResult | undefined>(undefined);
  const upload = useImportToContactList();
  const showError = useErrorToast();

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file may be picked again
    if (!file) return;
    if (!isSpreadsheet(file.name)) {
      toast.error(t('contactLists.import.onlySpreadsheets'));
      return;
    }
    try {
      setSheet(await readSpreadsheet(file));
    } catch (error) {
      toast.error(t('contactLists.import.unreadable', { reason: error instanceof Error ? error.message : String(error) }));
    }
  };

  const confirm = async () => {
    if (!sheet) return;
    try {
      const outcome = await upload.mutateAsync({ contactListId, rows: sheet.rows, onProgress: setSent });
      toast.success(t('contactLists.import.result', { ...outcome, invalid: outcome.invalid.length }));
      setResult(outcome);
    } catch (error) {
      showError(error);
    } finally {
      setSheet(undefined);
    }
  };

  const total = sheet?.rows.length ?? 0;
  return (
    <>
      <Button variant="outlined" startIcon={<UploadFile />} onClick={() => input.current?.click()} sx={{ flexShrink: 0 }}>
        {t('contactLists.import.button')}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        accept=".xls,.xlsx,.csv,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
        onChange={pick}
        data-testid="list-import-input"
        aria-label={t('contactLists.import.spreadsheet')}
      />
      <Dialog
        open={Boolean(sheet)}
        onClose={() => !upload.isPending && setSheet(undefined)}
        maxWidth="xs"
        fullWidth
        data-testid="list-import-confirm"
      >
        <DialogTitle>{t('contactLists.import.confirmTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {sheet && t('contactLists.import.confirmMessage', { file: sheet.fileName, count: total, columns: sheet.columns.join(', ') })}
          </DialogContentText>
          {upload.isPending ? (
            <Box sx={{ mt: 2 }} data-testid="list-import-progress">
              <LinearProgress variant="determinate" value={total ? (sent / total) * 100 : 0} />
              <Typography variant="caption" color="text.secondary">
                {t('contactLists.import.progress', { sent, total })}
              </Typography>
            </Box>
          ) : (
            <Button size="small" startIcon={<Download />} onClick={() => void downloadSampleSheet().catch(showError)} sx={{ mt: 1 }}>
              {t('contactLists.sample')}
            </Button>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setSheet(undefined)} color="inherit" disabled={upload.isPending}>
            {t('common.cancel')}
          </Button>
          <Button onClick={confirm} variant="contained" loading={upload.isPending}>
            {t('common.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={Boolean(result)} onClose={() => setResult(undefined)} maxWidth="sm" data-testid="list-import-result">
        <DialogTitle>{t('contactLists.import.button')}</DialogTitle>
        <DialogContent>
          {result && (
            <>
              <Alert severity={result.invalid.length ? 'warning' : 'success'}>
                {t('contactLists.import.result', { ...result, invalid: result.invalid.length })}
              </Alert>
              {result.invalid.length > 0 && (
                <List dense>
                  {result.invalid.slice(0, SHOWN_INVALID_ROWS).map((row) => (
                    <ListItem key={`${row.row}-${row.field}`}>
                      {t('contactLists.import.invalidRow', {
                        ...row,
                        message: fieldErrors<{ row: string }>([{ path: ['row'], message: row.message }], t).row,
                      })}
                    </ListItem>
                  ))}
                  {result.invalid.length > SHOWN_INVALID_ROWS && <ListItem>…</ListItem>}
                </List>
              )}
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setResult(undefined)}>{t('contactLists.import.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
