import {
  type CampaignMessageField,
  campaignConfirmationFields,
  campaignMessageFields,
  createCampaignSchema,
  NO_TAG_LIST,
  updateCampaignSchema,
} from '@conversa/functions/contracts/campaigns';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import {
  Alert,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Grid,
  MenuItem,
  Stack,
  Switch,
  TextField,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DayTimeField } from '../../../components/date-fields.tsx';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { SENDABLE_ACCEPT } from '../../../lib/direct-upload.ts';
import { useConnections } from '../../../lib/lookups/connections.ts';
import { useContactListOptions } from '../../../lib/lookups/contact-lists.ts';
import { useFileListOptions } from '../../../lib/lookups/file-lists.ts';
import { useTagOptions } from '../../../lib/lookups/tags.ts';
import { CONTACT_PLACEHOLDERS } from '../../../lib/message-variables.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { fieldErrors } from '../../../lib/validation.ts';
import { fromLocalInput, showsSave, toLocalInput } from '../api/campaign-rules.ts';
import { type Campaign, useCampaignSettings, useSaveCampaign } from '../api/campaigns.ts';
import { type CampaignMessages, CampaignMessageTabs } from './campaign-message-tabs.tsx';

type Field = 'name' | 'scheduledAt' | CampaignMessageField;
const allMessageFields = [...campaignMessageFields, ...campaignConfirmationFields];

const initialMessages = (campaign: Campaign | undefined) =>
  Object.fromEntries(allMessageFields.map((field) => [field, campaign?.[field] ?? ''])) as CampaignMessages;

const idText = (id: number | null | undefined) => (id ? String(id) : '');

/**
 * SPEC 2 "Campaigns" dialog: name, confirmation, contact list, tag list, connection, scheduled time,
 * file list, five message tabs (with their confirmation messages) and an attachment. SPEC 4: read
 * only (and titled so) unless editable.
 */
export function CampaignDialog({ campaign, onClose }: { campaign: Campaign | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const { user } = useAuth();
  const save = useSaveCampaign();
  const showError = useErrorToast();
  const lists = useContactListOptions();
  const tags = useTagOptions();
  const connections = useConnections();
  const fileLists = useFileListOptions(user?.companyId);
  const settings = useCampaignSettings();
  const editable = showsSave(campaign);
  const fieldsLocked = !editable;

  const [name, setName] = useState(campaign?.name ?? '');
  const [confirmation, setConfirmation] = useState(campaign?.confirmation ?? false);
  const [contactListId, setContactListId] = useState(idText(campaign?.contactListId));
  const [tagListId, setTagListId] = useState(
    campaign?.tagListId && campaign.tagListId !== NO_TAG_LIST ? String(campaign.tagListId) : NO_TAG_LIST,
  );
  const [whatsappId, setWhatsappId] = useState(idText(campaign?.whatsappId));
  const [fileListId, setFileListId] = useState(idText(campaign?.fileListId));
  const [scheduledAt, setScheduledAt] = useState(campaign?.scheduledAt ? toLocalInput(campaign.scheduledAt) : '');
  const [messages, setMessages] = useState<CampaignMessages>(() => initialMessages(campaign));
  // Without a schedule the campaign waits (INATIVA) unless the user asks to start it on save.
  const [startNow, setStartNow] = useState(false);
  // undefined: keep the current attachment; null: remove it; a File: upload it.
  const [attachment, setAttachment] = useState<File | null | undefined>(undefined);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const attachmentName = attachment ? attachment.name : attachment === null ? '' : (campaign?.mediaName ?? '');
  const placeholders = [...CONTACT_PLACEHOLDERS, ...(settings.data?.variables ?? []).map((v) => `{${v.key}}`)];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!editable) return;
    const when = scheduledAt ? fromLocalInput(scheduledAt) : null;
    const next: Partial<Record<Field, string>> = {};
    if (scheduledAt && !when) next.scheduledAt = t('campaigns.validation.invalidDate');
    else if (when && Date.parse(when) <= Date.now()) next.scheduledAt = t('campaigns.validation.scheduleAhead');
    const raw = {
      name,
      confirmation,
      contactListId,
      tagListId,
      whatsappId,
      fileListId,
      scheduledAt: when ?? '',
      ...messages,
      ...(startNow && !when ? { status: 'EM_ANDAMENTO' } : {}),
    };
    const parsed = campaign ? updateCampaignSchema.safeParse(raw) : createCampaignSchema.safeParse(raw);
    if (!parsed.success) Object.assign(next, fieldErrors<Record<Field, string>>(parsed.error.issues, t));
    if (!parsed.success || Object.keys(next).length) {
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: campaign?.id, input: parsed.data, attachment });
      toast.success(t('campaigns.saved'));
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  const select = (
    label: string,
    fieldName: string,
    value: string,
    onChange: (value: string) => void,
    options: { value: string; label: string }[],
  ) => (
    <TextField
      select
      fullWidth
      label={label}
      name={fieldName}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      disabled={fieldsLocked}
      slotProps={{ select: { MenuProps: { slotProps: { paper: { 'data-testid': `${fieldName}-options` } as object } } } }}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
  const none = { value: '', label: t('common.none') };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} data-testid="campaign-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>
          {!campaign ? t('campaigns.dialog.addTitle') : editable ? t('campaigns.dialog.editTitle') : t('campaigns.dialog.readOnlyTitle')}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {campaign && !editable && (
              <Alert severity="info" data-testid="campaign-read-only">
                {t('campaigns.dialog.readOnlyHint')}
              </Alert>
            )}
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, sm: 8 }}>
                <TextField
                  fullWidth
                  label={t('campaigns.fields.name')}
                  name="name"
                  value={name}
                  onChange={(e) => {
                    setName(e.target.value);
                    setErrors((current) => ({ ...current, name: undefined }));
                  }}
                  error={Boolean(errors.name)}
                  helperText={errors.name}
                  disabled={fieldsLocked}
                  autoFocus={!campaign}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 4 }} sx={{ display: 'flex', alignItems: 'center' }}>
                <FormControlLabel
                  control={<Switch checked={confirmation} onChange={(e) => setConfirmation(e.target.checked)} name="confirmation" />}
                  label={t('campaigns.fields.confirmation')}
                  disabled={fieldsLocked}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 4 }}>
                {select(t('campaigns.fields.contactList'), 'contactListId', contactListId, setContactListId, [
                  none,
                  ...(lists.data ?? []).map((list) => ({ value: String(list.id), label: `${list.name} (${list.contactsCount})` })),
                ])}
              </Grid>
              <Grid size={{ xs: 12, sm: 4 }}>
                {select(t('campaigns.fields.tagList'), 'tagListId', tagListId, setTagListId, [
                  { value: NO_TAG_LIST, label: t('common.none') },
                  ...(tags.data ?? []).map((tag) => ({ value: String(tag.id), label: tag.name })),
                ])}
              </Grid>
              <Grid size={{ xs: 12, sm: 4 }}>
                {select(t('campaigns.fields.connection'), 'whatsappId', whatsappId, setWhatsappId, [
                  none,
                  ...(connections.data ?? []).map((connection) => ({ value: String(connection.id), label: connection.name })),
                ])}
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <DayTimeField
                  fullWidth
                  label={t('campaigns.fields.scheduledAt')}
                  name="scheduledAt"
                  value={scheduledAt}
                  onChange={(value) => {
                    setScheduledAt(value);
                    setErrors((current) => ({ ...current, scheduledAt: undefined }));
                  }}
                  error={Boolean(errors.scheduledAt)}
                  helperText={errors.scheduledAt ?? t(startNow ? 'campaigns.dialog.scheduleHintStartNow' : 'campaigns.dialog.scheduleHint')}
                  disabled={fieldsLocked}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                {select(t('campaigns.fields.fileList'), 'fileListId', fileListId, setFileListId, [
                  none,
                  ...(fileLists.data ?? []).map((list) => ({ value: String(list.id), label: list.name })),
                ])}
              </Grid>
              {editable && !scheduledAt && (campaign?.status ?? 'INATIVA') === 'INATIVA' && (
                <Grid size={12}>
                  <FormControlLabel
                    control={<Switch checked={startNow} onChange={(e) => setStartNow(e.target.checked)} name="startNow" />}
                    label={t('campaigns.dialog.startNow')}
                  />
                </Grid>
              )}
            </Grid>
            <CampaignMessageTabs
              values={messages}
              onChange={(field, value) => {
                setMessages((current) => ({ ...current, [field]: value }));
                setErrors((current) => ({ ...current, [field]: undefined }));
              }}
              confirmation={confirmation}
              placeholders={placeholders}
              disabled={fieldsLocked}
              errors={errors}
            />
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
              {!fieldsLocked && (
                <Button size="small" startIcon={<AttachFile />} onClick={() => fileInput.current?.click()}>
                  {t('campaigns.dialog.attach')}
                </Button>
              )}
              <input
                ref={fileInput}
                type="file"
                hidden
                accept={SENDABLE_ACCEPT}
                data-testid="campaign-file"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) setAttachment(file);
                  e.target.value = '';
                }}
              />
              {attachmentName && (
                <Chip
                  label={attachmentName}
                  icon={<AttachFile />}
                  onDelete={fieldsLocked ? undefined : () => setAttachment(null)}
                  deleteIcon={<DeleteOutline aria-label={t('campaigns.dialog.removeAttachment')} />}
                  data-testid="campaign-attachment"
                />
              )}
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {editable ? t('common.cancel') : t('campaigns.dialog.close')}
          </Button>
          {editable && (
            <Button type="submit" variant="contained" loading={save.isPending}>
              {campaign ? t('common.save') : t('common.add')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
