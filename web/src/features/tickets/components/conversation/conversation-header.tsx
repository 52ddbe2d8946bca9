import type { Ticket } from '@conversa/functions/contracts/tickets';
import ArrowBack from '@mui/icons-material/ArrowBack';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import DoneOutlined from '@mui/icons-material/DoneOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import ReplayOutlined from '@mui/icons-material/ReplayOutlined';
import ScheduleSendOutlined from '@mui/icons-material/ScheduleSendOutlined';
import UndoOutlined from '@mui/icons-material/UndoOutlined';
import {
  Avatar,
  Box,
  Button,
  ButtonBase,
  IconButton,
  Menu,
  MenuItem,
  Stack,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ConfirmDialog } from '../../../../components/confirm-dialog.tsx';
import { isAdmin, useAuth } from '../../../../lib/auth/auth-provider.tsx';
import { formatPhoneNumber } from '../../../../lib/phone-numbers.ts';
import { toast } from '../../../../lib/toast.ts';
import { useErrorToast } from '../../../../lib/use-api-error.ts';
import { type TicketUpdate, useDeleteTicket, useUpdateTicket } from '../../api/tickets.ts';
import { SnoozeMenu } from './snooze-menu.tsx';
import { TransferDialog } from './transfer-dialog.tsx';

type Action = 'accept' | 'return' | 'resolve' | 'reopen';

/** Narrow screens show the actions as icons so the contact's name keeps its room. */
const actionIcons = { accept: DoneOutlined, return: UndoOutlined, resolve: CheckCircleOutlined, reopen: ReplayOutlined };

/** SPEC 2 "Conversation" header: the contact and the actions the ticket's status allows (SPEC 4). */
interface ConversationHeaderProps {
  ticket: Ticket;
  onBack?: () => void;
  /** Opens the contact drawer (the avatar and the name are its button). */
  onOpenContact: () => void;
  /** Opens the schedule message dialog for the contact (composed by the app; absent without useSchedules). */
  onSchedule?: () => void;
}

export function ConversationHeader({ ticket, onBack, onOpenContact, onSchedule }: ConversationHeaderProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const navigate = useNavigate();
  const showError = useErrorToast();
  const update = useUpdateTicket();
  const remove = useDeleteTicket();
  const [running, setRunning] = useState<Action | null>(null);
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [transferring, setTransferring] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // Resolve ends the conversation for the contact (and may send the farewell), Return hands the
  // contact back to the queue: both are asked first, one confirmation dialog for either.
  const [confirming, setConfirming] = useState<'resolve' | 'return' | null>(null);

  const run = async (action: Action) => {
    if (!user) return;
    const inputs: Record<Action, TicketUpdate> = {
      accept: { status: 'open', userId: user.id, queueId: ticket.queueId },
      return: { status: 'pending', userId: null },
      // SPEC 4 "Resolve": user and queue, and integration, prompt and integration id as false.
      resolve: { status: 'closed', userId: user.id, queueId: ticket.queueId, useIntegration: false, promptId: false, integrationId: false },
      reopen: { status: 'open', userId: user.id, queueId: ticket.queueId },
    };
    setRunning(action);
    try {
      await update.mutateAsync({ id: ticket.id, input: inputs[action] });
      if (action === 'resolve') toast.success(t('conversation.resolved'));
      if (action === 'return' || action === 'resolve') navigate('/tickets');
    } catch (error) {
      showError(error);
    } finally {
      // Closed on an error too: the ticket is read again (ERR_TICKET_CHANGED) and the user decides anew.
      setConfirming(null);
      setRunning(null);
    }
  };

  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(ticket.id);
      setDeleting(false);
      navigate('/tickets');
    } catch (error) {
      showError(error);
    }
  };

  const button = (action: Action, variant: 'contained' | 'outlined' = 'outlined', color: 'primary' | 'success' | 'inherit' = 'primary') => {
    const label = t(`conversation.actions.${action}`);
    const start = () => (action === 'resolve' || action === 'return' ? setConfirming(action) : void run(action));
    if (compact) {
      const Icon = actionIcons[action];
      return (
        <Tooltip title={label}>
          <span>
            <IconButton aria-label={label} color={color} disabled={running !== null} onClick={start} size="small">
              <Icon />
            </IconButton>
          </span>
        </Tooltip>
      );
    }
    return (
      <Button size="small" variant={variant} color={color} loading={running === action} disabled={running !== null} onClick={start}>
        {label}
      </Button>
    );
  };
  const canTransfer = ticket.status !== 'closed';

  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider', minHeight: 64 }}
      data-testid="conversation-header"
    >
      {onBack && (
        <IconButton aria-label={t('conversation.actions.back')} onClick={onBack} size="small">
          <ArrowBack />
        </IconButton>
      )}
      <ButtonBase
        onClick={onOpenContact}
        aria-label={t('conversation.contact.open')}
        data-testid="open-contact"
        sx={{ flex: 1, minWidth: 0, gap: 1, justifyContent: 'flex-start', textAlign: 'left', borderRadius: 1, py: 0.5 }}
      >
        {/* A phone gives the avatar's room to the name. */}
        {!compact && (
          <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name}>
            {ticket.contact.name.slice(0, 1).toUpperCase()}
          </Avatar>
        )}
        <Tooltip title={ticket.contact.name} placement="bottom-start" disableInteractive>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            {/* Two lines before an ellipsis, and no ellipsis inside a word: a name is cut only when truly long. */}
            <Typography
              variant="subtitle1"
              data-testid="conversation-contact-name"
              sx={{
                fontWeight: 600,
                lineHeight: 1.3,
                display: '-webkit-box',
                WebkitLineClamp: 2,
                WebkitBoxOrient: 'vertical',
                overflow: 'hidden',
                overflowWrap: 'anywhere',
              }}
            >
              {ticket.contact.name}{' '}
              <Typography component="span" variant="caption" sx={{ color: 'text.secondary' }}>
                #{ticket.id}
              </Typography>
            </Typography>
            {compact ? (
              <Typography
                variant="caption"
                noWrap
                sx={{ color: 'text.secondary', display: 'block' }}
                data-testid="conversation-contact-number"
              >
                {formatPhoneNumber(ticket.contact.number, ticket.isGroup)}
              </Typography>
            ) : (
              ticket.user && (
                <Typography variant="caption" noWrap sx={{ color: 'text.secondary', display: 'block' }}>
                  {t('conversation.assignedTo', { name: ticket.user.name })}
                </Typography>
              )
            )}
          </Box>
        </Tooltip>
      </ButtonBase>
      {/* Read through a mention (issue 22 §6): nothing to act on, the thread alone. */}
      <Stack
        direction="row"
        spacing={compact ? 0 : 1}
        sx={{ flexShrink: 0, alignItems: 'center', ...(ticket.readOnly ? { display: 'none' } : {}) }}
      >
        {onSchedule && !compact && (
          <Tooltip title={t('schedules.scheduleMessage')}>
            <IconButton aria-label={t('schedules.scheduleMessage')} onClick={onSchedule} size="small" data-testid="schedule-message">
              <ScheduleSendOutlined />
            </IconButton>
          </Tooltip>
        )}
        {ticket.status !== 'closed' && <SnoozeMenu ticket={ticket} />}
        {ticket.status === 'pending' && button('accept', 'contained', 'success')}
        {ticket.status === 'open' && button('return', 'outlined', 'inherit')}
        {ticket.status !== 'closed' && button('resolve', 'contained')}
        {ticket.status === 'closed' && button('reopen', 'contained')}
        {(canTransfer || admin || (compact && onSchedule)) && (
          <IconButton aria-label={t('conversation.actions.more')} onClick={(event) => setMenu(event.currentTarget)} size="small">
            <MoreVert />
          </IconButton>
        )}
      </Stack>
      <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {/* On a phone the schedule action lives here, leaving the header's room to the name. */}
        {compact && onSchedule && (
          <MenuItem
            data-testid="schedule-message"
            onClick={() => {
              setMenu(null);
              onSchedule();
            }}
          >
            {t('schedules.scheduleMessage')}
          </MenuItem>
        )}
        {canTransfer && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              setTransferring(true);
            }}
          >
            {t('conversation.actions.transfer')}
          </MenuItem>
        )}
        {admin && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              setDeleting(true);
            }}
            sx={{ color: 'error.main' }}
          >
            {t('conversation.actions.delete')}
          </MenuItem>
        )}
      </Menu>
      <TransferDialog ticket={ticket} open={transferring} onClose={() => setTransferring(false)} />
      <ConfirmDialog
        open={confirming !== null}
        title={t(confirming === 'return' ? 'conversation.returnTitle' : 'conversation.resolveTitle', { name: ticket.contact.name })}
        message={t(confirming === 'return' ? 'conversation.returnMessage' : 'conversation.resolveMessage')}
        confirmColor="primary"
        busy={running !== null && running === confirming}
        onConfirm={() => confirming && void run(confirming)}
        onClose={() => setConfirming(null)}
      />
      <ConfirmDialog
        open={deleting}
        title={t('conversation.deleteTitle', { name: ticket.contact.name })}
        message={t('conversation.deleteMessage')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(false)}
      />
    </Stack>
  );
}
