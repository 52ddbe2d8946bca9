import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import HighlightOffOutlined from '@mui/icons-material/HighlightOffOutlined';
import MicOutlined from '@mui/icons-material/MicOutlined';
import { Box, IconButton, Stack, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { AudioTooShortError, type Recording, recordingToMp3, startRecording } from '../api/voice.ts';

interface VoiceRecorderProps {
  /** SPEC 4: recording is allowed only on open tickets, and not while a message is being sent. */
  disabled: boolean;
  onRecordingChange: (recording: boolean) => void;
  /** Sends the mp3; resolves when the send is done (or failed and reported). */
  onRecorded: (file: File) => Promise<void>;
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** SPEC 2 "Message input": the microphone button, then cancel / elapsed time / send while recording. */
export function VoiceRecorder({ disabled, onRecordingChange, onRecorded }: VoiceRecorderProps) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const recording = useRef<Recording | null>(null);
  const [state, setState] = useState<'idle' | 'starting' | 'recording' | 'encoding'>('idle');
  const [seconds, setSeconds] = useState(0);

  useEffect(() => {
    if (state !== 'recording') return;
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [state]);
  // Leaving the conversation mid-recording releases the microphone.
  useEffect(() => () => recording.current?.cancel(), []);

  const set = (next: typeof state) => {
    setState(next);
    onRecordingChange(next !== 'idle');
  };

  const start = async () => {
    set('starting');
    setSeconds(0);
    try {
      recording.current = await startRecording();
      set('recording');
    } catch (error) {
      // SPEC 8: microphone failures go to the shared error handler.
      set('idle');
      showError(error);
    }
  };

  const cancel = () => {
    recording.current?.cancel();
    recording.current = null;
    set('idle');
  };

  const finish = async () => {
    const current = recording.current;
    if (!current) return;
    recording.current = null;
    set('encoding');
    try {
      const file = await recordingToMp3(await current.stop());
      await onRecorded(file);
    } catch (error) {
      if (error instanceof AudioTooShortError) toast.warning(t('conversation.input.audioTooShort'));
      else showError(error);
    } finally {
      set('idle');
    }
  };

  if (state === 'idle' || state === 'starting') {
    return (
      <IconButton aria-label={t('conversation.input.record')} disabled={disabled || state === 'starting'} onClick={() => void start()}>
        <MicOutlined />
      </IconButton>
    );
  }
  return (
    <Stack direction="row" sx={{ alignItems: 'center', flexShrink: 0 }} data-testid="voice-recorder">
      <IconButton aria-label={t('conversation.input.cancelRecording')} color="error" disabled={state !== 'recording'} onClick={cancel}>
        <HighlightOffOutlined />
      </IconButton>
      {state === 'encoding' ? (
        <Box sx={{ px: 1, display: 'flex' }}>
          <Spinner size={20} />
        </Box>
      ) : (
        <Typography variant="body2" sx={{ px: 0.5, minWidth: 40, fontVariantNumeric: 'tabular-nums' }} aria-live="polite">
          {clock(seconds)}
        </Typography>
      )}
      <IconButton
        aria-label={t('conversation.input.stopRecording')}
        color="success"
        disabled={state !== 'recording'}
        onClick={() => void finish()}
      >
        <CheckCircleOutlined />
      </IconButton>
    </Stack>
  );
}
