import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import ListAlt from '@mui/icons-material/ListAlt';
import SendOutlined from '@mui/icons-material/SendOutlined';
import { Alert, Box, Button, Chip, IconButton, Stack, Switch, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import {
  useDeleteWebhook,
  useRotateWebhookSecret,
  useSaveWebhook,
  useSendTestEvent,
  useWebhooks,
  useWebhooksLive,
  type Webhook,
} from '../api/webhooks.ts';
import { DeliveriesDialog } from './deliveries-dialog.tsx';
import { SecretDialog } from './secret-dialog.tsx';
import { SignatureDocs } from './signature-docs.tsx';
import { WebhookDialog } from './webhook-dialog.tsx';

/**
 * Webhooks (issue 23 §2, admins of plans with the external API): the company's endpoints, each with
 * its events, on/off switch, test event, delivery log, secret rotation, edit and delete; the secret
 * shown once; how to verify a delivery's signature.
 */
export function WebhooksPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  useWebhooksLive(user?.companyId, (url) => t('webhooks.disabledNotice', { url }));
  const list = useWebhooks();
  const save = useSaveWebhook();
  const rotate = useRotateWebhookSecret();
  const test = useSendTestEvent();
  const remove = useDeleteWebhook();
  const showError = useErrorToast();
  const deletion = useConfirmedDelete((webhook: Webhook) => remove.mutateAsync(webhook.id), t('webhooks.deleted'));
  const [editing, setEditing] = useState<{ webhook: Webhook | undefined } | undefined>(undefined);
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const [logOf, setLogOf] = useState<Webhook | undefined>(undefined);
  const [rotating, setRotating] = useState<Webhook | undefined>(undefined);
  const rows = list.data ?? [];
  const failing = rows.filter((w) => w.disabledReason === 'failing');

  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      toast.success(done);
    } catch (error) {
      showError(error);
    }
  };

  const columns: Column<Webhook>[] = [
    {
      id: 'url',
      label: t('webhooks.fields.url'),
      // On a phone the five action icons wrap under each other rather than squeeze the URL to a letter a line.
      sx: { minWidth: 150 },
      render: (w) => (
        <>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere', fontFamily: 'monospace' }}>
            {w.url}
          </Typography>
          {w.description && (
            <Typography variant="caption" color="text.secondary">
              {w.description}
            </Typography>
          )}
          {w.disabledReason === 'failing' && (
            <Typography variant="caption" color="error" component="div">
              {t('webhooks.failingOff')}
            </Typography>
          )}
        </>
      ),
    },
    {
      id: 'events',
      label: t('webhooks.fields.events'),
      hideBelow: 'md',
      render: (w) => (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {w.events.map((event) => (
            <Chip key={event} size="small" label={event} variant="outlined" />
          ))}
        </Box>
      ),
    },
    {
      id: 'enabled',
      label: t('webhooks.fields.enabled'),
      align: 'center',
      render: (w) => (
        <Switch
          checked={w.enabled}
          slotProps={{ input: { 'aria-label': t('webhooks.fields.enabled') } }}
          data-testid={`webhook-enabled-${w.id}`}
          onChange={(_e, enabled) =>
            void run(
              () => save.mutateAsync({ id: w.id, input: { enabled } }),
              enabled ? t('webhooks.enabledNow') : t('webhooks.disabledNow'),
            )
          }
        />
      ),
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: { xs: 'normal', md: 'nowrap' } },
      render: (w) => (
        <>
          <Tooltip title={t('webhooks.actions.test')}>
            <IconButton
              aria-label={t('webhooks.actions.test')}
              onClick={() => void run(() => test.mutateAsync(w.id), t('webhooks.testSent'))}
            >
              <SendOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('webhooks.actions.log')}>
            <IconButton aria-label={t('webhooks.actions.log')} onClick={() => setLogOf(w)}>
              <ListAlt fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('webhooks.actions.rotate')}>
            <IconButton aria-label={t('webhooks.actions.rotate')} onClick={() => setRotating(w)}>
              <KeyOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('common.edit')}>
            <IconButton aria-label={t('common.edit')} onClick={() => setEditing({ webhook: w })}>
              <EditOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('common.delete')}>
            <IconButton aria-label={t('common.delete')} onClick={() => deletion.ask(w)}>
              <DeleteOutline fontSize="small" />
            </IconButton>
          </Tooltip>
        </>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('webhooks.title')}
        actions={
          <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ webhook: undefined })} sx={{ flexShrink: 0 }}>
            {t('webhooks.add')}
          </Button>
        }
      />
      <Stack spacing={2}>
        {failing.length > 0 && (
          <Alert severity="error" data-testid="webhooks-failing">
            {t('webhooks.failingAlert', { count: failing.length })}
          </Alert>
        )}
        <DataTable
          data-testid="webhooks-table"
          columns={columns}
          rows={rows}
          rowKey={(w) => w.id}
          rowTestId={(w) => `webhook-${w.id}`}
          pending={list.isPending}
          error={list.error}
          maxHeight="none"
          empty={t('webhooks.empty')}
        />
        <SignatureDocs />
      </Stack>
      {editing && (
        <WebhookDialog webhook={editing.webhook} onClose={() => setEditing(undefined)} onCreated={(created) => setSecret(created.secret)} />
      )}
      {secret && <SecretDialog secret={secret} onClose={() => setSecret(undefined)} />}
      {logOf && <DeliveriesDialog webhook={logOf} onClose={() => setLogOf(undefined)} />}
      <ConfirmDialog
        open={Boolean(rotating)}
        title={t('webhooks.rotateTitle')}
        message={t('webhooks.rotateMessage')}
        confirmColor="primary"
        busy={rotate.isPending}
        onClose={() => setRotating(undefined)}
        onConfirm={async () => {
          if (!rotating) return;
          try {
            const rotated = await rotate.mutateAsync(rotating.id);
            setRotating(undefined);
            setSecret(rotated.secret);
          } catch (error) {
            showError(error);
          }
        }}
      />
      <ConfirmDialog
        {...deletion.dialog}
        title={t('webhooks.deleteTitle', { url: deletion.target?.url ?? '' })}
        message={t('webhooks.deleteMessage')}
      />
    </>
  );
}
