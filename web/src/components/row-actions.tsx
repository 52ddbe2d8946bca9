import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { IconButton, Tooltip } from '@mui/material';
import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface RowActionProps {
  label: string;
  onClick: (event: MouseEvent<HTMLElement>) => void;
  children: ReactNode;
  disabled?: boolean;
}

/** One icon action of a table row, with its label as tooltip and accessible name. */
export function RowAction({ label, onClick, children, disabled }: RowActionProps) {
  return (
    <Tooltip title={label}>
      <span>
        <IconButton size="small" aria-label={label} onClick={onClick} disabled={disabled}>
          {children}
        </IconButton>
      </span>
    </Tooltip>
  );
}

interface EditDeleteActionsProps {
  onEdit: () => void;
  onDelete: () => void;
  disabled?: boolean;
}

/** A list row's Edit and Delete actions (SPEC 2 list screens). */
export function EditDeleteActions({ onEdit, onDelete, disabled }: EditDeleteActionsProps) {
  const { t } = useTranslation();
  return (
    <>
      <RowAction label={t('common.edit')} onClick={onEdit} disabled={disabled}>
        <EditOutlined fontSize="small" />
      </RowAction>
      <RowAction label={t('common.delete')} onClick={onDelete} disabled={disabled}>
        <DeleteOutline fontSize="small" />
      </RowAction>
    </>
  );
}
