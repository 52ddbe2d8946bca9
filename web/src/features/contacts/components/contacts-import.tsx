import UploadFile from '@mui/icons-material/UploadFileOutlined';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, List, ListItem } from '@mui/material';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { fieldErrors } from '../../../lib/validation.ts';
import { type ImportResult, isSpreadsheet, type ParsedSheet, readSpreadsheet, useImportContacts } from '../api/import-contacts.ts';

/** Invalid rows listed in the result; the rest is counted. */
const SHOWN_INVALID_ROWS = 20;

/**
 * Import from a spreadsheet (SPEC 2, 5): pick an .xls/.xlsx, read it here, confirm with the row
 * count, post the rows, then say how many were imported, already there, or rejected (and why).
 */
export function ContactsImport() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [sheet, setSheet] = useState<ParsedSheet | undefined>(undefined);
  const [result, setResult] = useState<ImportResult | undefined>(undefined);
  const importRows = useImportContacts();
  const showError = useErrorToast();

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file may be picked again
    if (!file) return;
    if (!isSpreadsheet(file.name)) {
      toast.error(t('contacts.import.onlySpreadsheets'));
      return;
    }
    try {
      setSheet(await readSpreadsheet(file));
    } catch (error) {
      toast.error(t('contacts.import.unreadable', { reason: error instanceof Error ? error.message : String(error) }));
    }
  };

  const confirm = async () => {
    if (!sheet) return;
    try {
      const outcome = await importRows.mutateAsync(sheet.rows);
      const counts = { imported: outcome.imported, duplicated: outcome.duplicated, invalid: outcome.invalid.length };
      toast.success(t('contacts.import.result', counts));
      setResult(outcome);
    } catch (error) {
      showError(error);
    } finally {
      setSheet(undefined);
    }
  };

  return (
    <>
      <Button variant="outlined" startIcon={<UploadFile />} onClick={() => input.current?.click()} sx={{ flexShrink: 0 }}>
        {t('contacts.import.button')}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        accept=".xls,.xlsx,.csv,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
        onChange={pick}
        data-testid="contacts-import-input"
        aria-label={t('contacts.import.spreadsheet')}
      />
      <Dialog open={Boolean(sheet)} onClose={() => setSheet(undefined)} maxWidth="xs">
        <DialogTitle>{t('contacts.import.confirmTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {sheet &&
              t('contacts.import.confirmMessage', { file: sheet.fileName, count: sheet.rows.length, columns: sheet.columns.join(', ') })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setSheet(undefined)} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button onClick={confirm} variant="contained" loading={importRows.isPending}>
            {t('common.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={Boolean(result)} onClose={() => setResult(undefined)} maxWidth="sm" data-testid="contacts-import-result">
        <DialogTitle>{t('contacts.import.button')}</DialogTitle>
        <DialogContent>
          {result && (
            <>
              <Alert severity={result.invalid.length ? 'warning' : 'success'}>
                {t('contacts.import.result', {
                  imported: result.imported,
                  duplicated: result.duplicated,
                  invalid: result.invalid.length,
                })}
              </Alert>
              {result.invalid.length > 0 && (
                <List dense>
                  {result.invalid.slice(0, SHOWN_INVALID_ROWS).map((row) => (
                    <ListItem key={`${row.row}-${row.field}`}>
                      {t('contacts.import.invalidRow', {
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
          <Button onClick={() => setResult(undefined)}>{t('contacts.import.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
