import type { Company } from '@conversa/functions/contracts';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { alpha, IconButton, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, type Theme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatDay } from '../../../lib/dates.ts';
import { type DueDateTone, dueDateTone } from '../api/due-date.ts';

const toneColour = (theme: Theme, tone: DueDateTone) =>
  tone === 'yellow'
    ? theme.palette.warning.light
    : tone === 'orange'
      ? theme.palette.warning.main
      : tone === 'red'
        ? theme.palette.error.main
        : undefined;

interface Props {
  companies: Company[];
  planName: (planId: number) => string;
  onEdit: (company: Company) => void;
  onDelete: (company: Company) => void;
}

export function CompaniesTable({ companies, planName, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t('companies.fields.name')}</TableCell>
            <TableCell>{t('companies.fields.email')}</TableCell>
            <TableCell>{t('companies.fields.phone')}</TableCell>
            <TableCell>{t('companies.fields.plan')}</TableCell>
            <TableCell>{t('companies.fields.status')}</TableCell>
            <TableCell>{t('companies.fields.dueDate')}</TableCell>
            <TableCell>{t('companies.fields.recurrence')}</TableCell>
            <TableCell align="right">{t('common.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {companies.map((company) => {
            const tone = dueDateTone(company.dueDate);
            return (
              <TableRow
                key={company.id}
                data-due-tone={tone ?? 'none'}
                sx={(theme) => {
                  const colour = toneColour(theme, tone);
                  return colour ? { backgroundColor: alpha(colour, 0.25) } : {};
                }}
              >
                <TableCell>{company.name}</TableCell>
                <TableCell>{company.email}</TableCell>
                <TableCell>{company.phone}</TableCell>
                <TableCell>{company.plan?.name ?? planName(company.planId)}</TableCell>
                <TableCell>{company.status ? t('common.yes') : t('common.no')}</TableCell>
                <TableCell>{company.dueDate ? formatDay(company.dueDate) : '—'}</TableCell>
                <TableCell>{t(`recurrences.${company.recurrence}`)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <IconButton size="small" onClick={() => onEdit(company)} aria-label={t('common.edit')}>
                    <EditOutlined fontSize="small" />
                  </IconButton>
                  <IconButton size="small" onClick={() => onDelete(company)} aria-label={t('common.delete')}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            );
          })}
          {companies.length === 0 && (
            <TableRow>
              <TableCell colSpan={8} align="center" sx={{ color: 'text.secondary' }}>
                {t('common.noRecords')}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
