import AddCircleOutline from '@mui/icons-material/AddCircleOutlineOutlined';
import AttachFile from '@mui/icons-material/AttachFile';
import Check from '@mui/icons-material/Check';
import DriveFileRenameOutline from '@mui/icons-material/DriveFileRenameOutline';
import InsertEmoticonOutlined from '@mui/icons-material/InsertEmoticonOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface ComposerPhoneMenuProps {
  disabled: boolean;
  note: boolean;
  /** A file waits to go: it cannot become a note. */
  hasFiles: boolean;
  sign: boolean;
  /** Opens the emoji picker at this element (the menu's button: the menu is gone by then). */
  onEmoji: (anchor: HTMLElement) => void;
  onAttach: () => void;
  onToggleNote: () => void;
  onToggleSign: () => void;
}

/**
 * The composer's options on a phone (below 600 px) behind one button: emoji, attach, private note and
 * sign took four buttons beside the text box, which left it ~120 px wide on a 390 px screen (two or
 * three words a line). Wider screens keep them in the row (message-input.tsx).
 */
export function ComposerPhoneMenu({
  disabled,
  note,
  hasFiles,
  sign,
  onEmoji,
  onAttach,
  onToggleNote,
  onToggleSign,
}: ComposerPhoneMenuProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const item = (label: string, icon: ReactNode, act: () => void, options: { checked?: boolean; disabled?: boolean } = {}) => (
    <MenuItem
      disabled={options.disabled}
      role={options.checked === undefined ? 'menuitem' : 'menuitemcheckbox'}
      aria-checked={options.checked}
      onClick={() => {
        close();
        act();
      }}
    >
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText>{label}</ListItemText>
      {options.checked && <Check fontSize="small" sx={{ ml: 2 }} />}
    </MenuItem>
  );
  return (
    <>
      <IconButton
        aria-label={t('conversation.input.options')}
        aria-haspopup="menu"
        disabled={disabled}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ display: { xs: 'inline-flex', sm: 'none' } }}
        data-testid="composer-phone-menu"
      >
        <AddCircleOutline />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        {item(t('conversation.input.emoji'), <InsertEmoticonOutlined fontSize="small" />, () => anchor && onEmoji(anchor))}
        {item(t('conversation.input.attach'), <AttachFile fontSize="small" />, onAttach, { disabled: note })}
        {item(t('conversation.input.note'), <LockOutlined fontSize="small" />, onToggleNote, { checked: note, disabled: hasFiles })}
        {item(t('conversation.input.sign'), <DriveFileRenameOutline fontSize="small" />, onToggleSign, { checked: sign, disabled: note })}
      </Menu>
    </>
  );
}
