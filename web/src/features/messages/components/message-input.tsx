import type { Message } from '@conversa/functions/contracts/messages';
import type { TicketStatus } from '@conversa/functions/contracts/tickets';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import InsertEmoticonOutlined from '@mui/icons-material/InsertEmoticonOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Send from '@mui/icons-material/Send';
import { Box, FormControlLabel, IconButton, LinearProgress, Stack, Switch, TextField, ToggleButton, Tooltip } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { type ClipboardEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { SENDABLE_ACCEPT } from '../../../lib/direct-upload.ts';
import { readDraft, writeDraft } from '../../../lib/drafts.ts';
import { contactQueryOptions } from '../../../lib/lookups/contacts.ts';
import { type QuickMessageOption, useQuickMessageOptions } from '../../../lib/lookups/quick-messages.ts';
import { fillMessageVariables, needsContactRecord } from '../../../lib/message-variables.ts';
import { readStorage, storageKeys, writeStorage } from '../../../lib/storage.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { sendMediaMessage } from '../api/media.ts';
import { dropMessage, pendingTextMessage, putMessage, putSent, sendStoredMedia, sendTextMessage, toQuoted } from '../api/messages.ts';
import { useMentionPicker } from '../hooks/use-mention-picker.ts';
import { useQuickReplyPicker } from '../hooks/use-quick-reply-picker.ts';
import { AttachmentPreview } from './attachment-preview.tsx';
import { ComposerPhoneMenu } from './composer-phone-menu.tsx';
import { EmojiPicker } from './emoji-picker.tsx';
import { MentionSuggestions } from './mention-suggestions.tsx';
import { privateNoteColor, QuotedBlock } from './message-bubble.tsx';
import { QuickReplySuggestions } from './quick-reply-suggestions.tsx';
import { VoiceRecorder } from './voice-recorder.tsx';

/** Beside the text box from 600 px up; on a phone they are in ComposerPhoneMenu. */
const wideOnly = { display: { xs: 'none', sm: 'inline-flex' } } as const;

/** SPEC 9: the sign-message option is stored locally and on by default. */
const readSign = () => readStorage(storageKeys.signMessage) !== 'false';

interface MessageInputProps {
  ticket: { id: number; status: TicketStatus; contactId: number; whatsappId: number; contact: { name: string } };
  replyTo: Message | null;
  onClearReply: () => void;
}

export function MessageInput({ ticket, replyTo, onClearReply }: MessageInputProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const showError = useErrorToast();
  // What was typed here and not sent comes back (api/drafts.ts), a note as a note.
  const [draft] = useState(() => readDraft(user?.id, ticket.id));
  const [text, setText] = useState(draft.text);
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  const [recording, setRecording] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [sign, setSign] = useState(readSign);
  // Issue 22 §6: what is typed is a private note for the team while on (text only, never sent, unsigned).
  const [note, setNote] = useState(draft.note);
  const [emojiAnchor, setEmojiAnchor] = useState<HTMLElement | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const textInput = useRef<HTMLTextAreaElement>(null);
  const quick = useQuickMessageOptions(user?.companyId, user?.id);
  const mention = useMentionPicker({ note, text, setText, textInput, selfId: user?.id, initialPicked: draft.mentions });
  // SPEC 4: input, attachment and emoji are disabled unless the ticket is open, or while sending or recording.
  const disabled = ticket.status !== 'open' || sending || recording;
  const userId = user?.id;
  const picked = mention.picked;
  useEffect(() => writeDraft(userId, ticket.id, { text, note, mentions: picked }), [userId, ticket.id, text, note, picked]);

  const toggleSign = (on: boolean) => {
    setSign(on);
    writeStorage(storageKeys.signMessage, String(on));
  };
  const toggleNote = () => {
    setNote(!note);
    textInput.current?.focus();
  };
  // The server signs (signMessage); the local copy shows what it will store until it arrives.
  const signed = (body: string) => (sign && !note && user ? `*${user.name}:*\n${body}` : body);

  const sendText = async (raw: string) => {
    const mentioned = mention.mentionedIn(raw);
    const local = pendingTextMessage({ ticket, user, body: signed(raw), replyTo, isPrivate: note, mentions: mentioned });
    putMessage(queryClient, local);
    setText('');
    onClearReply();
    try {
      const sent = await sendTextMessage(
        ticket.id,
        raw,
        replyTo ? toQuoted(replyTo) : null,
        sign,
        note,
        mentioned.map((c) => c.id),
      );
      putSent(queryClient, sent);
      mention.reset();
    } catch (error) {
      dropMessage(queryClient, ticket.id, local.id);
      setText(raw);
      showError(error);
    }
  };

  const sendFiles = async (raw: string) => {
    setProgress(0);
    try {
      const sent = await sendMediaMessage(ticket.id, { files, body: raw.trim(), quotedMsgId: replyTo?.id, signMessage: sign }, setProgress);
      putSent(queryClient, sent);
      setFiles([]);
      setText('');
      onClearReply();
    } catch (error) {
      showError(error);
    } finally {
      setProgress(null);
    }
  };

  /**
   * A quick reply fills the input; one with an attachment is sent at once, its text as the caption.
   * Its placeholders ({nome}, {numero}, {email}, and the older {{name}}, {{greeting}}, ...) are
   * filled in from this ticket's contact and the moment; the contact's record is read (or taken
   * from the cache) only when the reply asks for its number or e-mail.
   */
  const pickQuick = async (option: QuickMessageOption) => {
    const record = needsContactRecord(option.message)
      ? await queryClient.fetchQuery(contactQueryOptions(ticket.contactId)).catch(() => undefined)
      : undefined;
    const message = fillMessageVariables(option.message, {
      contactName: ticket.contact.name,
      contactNumber: record?.number,
      contactEmail: record?.email ?? undefined,
      ticketId: ticket.id,
      now: new Date(),
    });
    if (!option.mediaPath) {
      setText(message);
      textInput.current?.focus();
      return;
    }
    setText('');
    setSending(true);
    try {
      putSent(queryClient, await sendStoredMedia(ticket.id, option.mediaPath, message, sign));
    } catch (error) {
      showError(error);
    } finally {
      setSending(false);
    }
  };

  // A quick reply with a file is sent at once: never offered while writing a note, which is text only.
  const quickReplies = useQuickReplyPicker({
    replies: quick.data,
    text,
    enabled: !mention.open && !disabled,
    textOnly: note,
    onPick: (option) => void pickQuick(option),
  });

  /** A voice note: the mp3 alone, unsigned (a caption would not show under a voice note). */
  const sendVoice = async (file: File) => {
    setSending(true);
    try {
      const sent = await sendMediaMessage(ticket.id, {
        files: [file],
        body: '',
        quotedMsgId: replyTo?.id,
        signMessage: false,
        asVoice: true,
      });
      putSent(queryClient, sent);
      onClearReply();
    } catch (error) {
      showError(error);
    } finally {
      setSending(false);
    }
  };

  const submit = async () => {
    if (disabled) return;
    const raw = text;
    // SPEC 5: a message with only blank text is ignored.
    if (files.length === 0 && !raw.trim()) return;
    // A note is text only (the toggle is off while files are attached, and attaching is off while it is on).
    if (note && (files.length > 0 || !raw.trim())) return;
    setSending(true);
    try {
      if (files.length > 0) await sendFiles(raw);
      else await sendText(raw.trim());
    } finally {
      setSending(false);
      setTimeout(() => textInput.current?.focus());
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (mention.handleKey(event) || quickReplies.handleKey(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  const onPaste = (event: ClipboardEvent) => {
    const pasted = Array.from(event.clipboardData.files);
    if (pasted.length > 0 && !disabled && !note) {
      event.preventDefault();
      setFiles((current) => [...current, ...pasted]);
    }
  };

  const addEmoji = (emoji: string) => {
    setText((current) => current + emoji);
    setEmojiAnchor(null);
    textInput.current?.focus();
  };

  return (
    <Box
      sx={{
        borderTop: note ? 2 : 1,
        borderColor: note ? 'warning.main' : 'divider',
        p: 1,
        bgcolor: note ? privateNoteColor : 'background.paper',
        position: 'relative',
      }}
      data-testid="message-input"
      data-note={note || undefined}
    >
      {mention.open && !disabled && <MentionSuggestions options={mention.options} selected={mention.selected} onPick={mention.pick} />}
      {quickReplies.options.length > 0 && (
        <QuickReplySuggestions options={quickReplies.options} selected={quickReplies.selected} onPick={quickReplies.pick} />
      )}
      {replyTo && (
        <QuotedBlock
          quoted={replyTo}
          action={
            <IconButton size="small" aria-label={t('conversation.input.cancelReply')} onClick={onClearReply}>
              <Close fontSize="small" />
            </IconButton>
          }
        />
      )}
      {files.length > 0 && (
        <AttachmentPreview
          files={files}
          onRemove={sending ? undefined : (index) => setFiles((current) => current.filter((_, i) => i !== index))}
        />
      )}
      {progress !== null && (
        <Tooltip title={t('conversation.input.uploading', { percent: Math.round(progress * 100) })}>
          <LinearProgress
            variant="determinate"
            value={progress * 100}
            aria-label={t('conversation.input.uploading', { percent: Math.round(progress * 100) })}
            sx={{ mb: 1 }}
          />
        </Tooltip>
      )}
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <ComposerPhoneMenu
          disabled={disabled}
          note={note}
          hasFiles={files.length > 0}
          sign={sign}
          onEmoji={setEmojiAnchor}
          onAttach={() => fileInput.current?.click()}
          onToggleNote={toggleNote}
          onToggleSign={() => toggleSign(!sign)}
        />
        <IconButton
          aria-label={t('conversation.input.emoji')}
          disabled={disabled}
          onClick={(event) => setEmojiAnchor(event.currentTarget)}
          sx={wideOnly}
        >
          <InsertEmoticonOutlined />
        </IconButton>
        <IconButton
          aria-label={t('conversation.input.attach')}
          disabled={disabled || note}
          onClick={() => fileInput.current?.click()}
          sx={wideOnly}
        >
          <AttachFile />
        </IconButton>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          accept={SENDABLE_ACCEPT}
          data-testid="attach-input"
          onChange={(event) => {
            const chosen = Array.from(event.target.files ?? []);
            if (chosen.length > 0) setFiles((current) => [...current, ...chosen]);
            event.target.value = '';
          }}
        />
        {/* Off once on: the composer says it is a note, and the hint would cover the @ list above it. */}
        <Tooltip title={note ? '' : t('conversation.input.noteHint')}>
          <Box component="span" sx={wideOnly}>
            <ToggleButton
              value="note"
              size="small"
              color="warning"
              selected={note}
              disabled={disabled || files.length > 0}
              onChange={toggleNote}
              aria-label={t('conversation.input.note')}
              data-testid="note-toggle"
              sx={{ gap: 0.5, px: 1, py: 0.25, textTransform: 'none', ...(note ? { fontWeight: 700, borderColor: 'warning.main' } : {}) }}
            >
              <LockOutlined fontSize="small" />
              <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
                {t('conversation.input.note')}
              </Box>
            </ToggleButton>
          </Box>
        </Tooltip>
        <FormControlLabel
          sx={{ mx: 0.5, display: { xs: 'none', sm: 'inline-flex' } }}
          disabled={note}
          control={<Switch size="small" checked={sign} onChange={(event) => toggleSign(event.target.checked)} />}
          label={t('conversation.input.sign')}
        />
        <TextField
          inputRef={textInput}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            mention.onTyped(event.target.selectionStart ?? event.target.value.length);
          }}
          onKeyDown={onKeyDown}
          onKeyUp={(event) => {
            if (event.key.startsWith('Arrow') || event.key === 'Home' || event.key === 'End') mention.trackCaret();
          }}
          onClick={mention.trackCaret}
          onPaste={onPaste}
          disabled={disabled}
          placeholder={
            ticket.status !== 'open'
              ? t('conversation.input.placeholderClosed')
              : note
                ? t('conversation.input.notePlaceholder')
                : t('conversation.input.placeholder')
          }
          multiline
          maxRows={5}
          size="small"
          fullWidth
          slotProps={{ htmlInput: { 'aria-label': t('conversation.input.placeholder') } }}
        />
        {!note && (recording || (!text.trim() && files.length === 0)) ? (
          <VoiceRecorder disabled={ticket.status !== 'open' || sending} onRecordingChange={setRecording} onRecorded={sendVoice} />
        ) : (
          <IconButton
            color={note ? 'warning' : 'primary'}
            aria-label={t('conversation.input.send')}
            disabled={disabled || (note && !text.trim())}
            onClick={() => void submit()}
          >
            <Send />
          </IconButton>
        )}
      </Stack>
      <EmojiPicker anchor={emojiAnchor} onClose={() => setEmojiAnchor(null)} onPick={addEmoji} />
    </Box>
  );
}
