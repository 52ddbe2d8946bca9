/*
 * Voice messages (SPEC 2 "Message input", 9): recorded with MediaRecorder, decoded to PCM with Web
 * Audio and encoded to mp3 at 128 kbps in the browser with lamejs (loaded only when a recording is
 * sent), so every browser sends the same format WhatsApp plays as a voice note. Recordings under
 * 10,000 bytes are discarded.
 */

export const AUDIO_KBPS = 128;
export const MIN_AUDIO_BYTES = 10_000;
/** lamejs encodes in frames of 1152 samples. */
const FRAME = 1152;

export class AudioTooShortError extends Error {
  constructor(readonly bytes: number) {
    super(`audio of ${bytes} bytes is under ${MIN_AUDIO_BYTES}`);
    this.name = 'AudioTooShortError';
  }
}

function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i] ?? 0));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}

/** Mono PCM (-1..1) to an mp3 file's bytes. */
export async function encodeMp3(samples: Float32Array, sampleRate: number): Promise<Uint8Array> {
  const { Mp3Encoder } = await import('@breezystack/lamejs');
  const encoder = new Mp3Encoder(1, sampleRate, AUDIO_KBPS);
  const pcm = toInt16(samples);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < pcm.length; i += FRAME) {
    const chunk = encoder.encodeBuffer(pcm.subarray(i, i + FRAME));
    if (chunk.length > 0) parts.push(new Uint8Array(chunk));
  }
  const tail = encoder.flush();
  if (tail.length > 0) parts.push(new Uint8Array(tail));
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The recording as an mp3 File ready to send; AudioTooShortError under the SPEC's minimum. */
export async function recordingToMp3(recorded: Blob, now = new Date()): Promise<File> {
  const context = new AudioContext();
  try {
    const decoded = await context.decodeAudioData(await recorded.arrayBuffer());
    const mp3 = await encodeMp3(decoded.getChannelData(0), decoded.sampleRate);
    if (mp3.length < MIN_AUDIO_BYTES) throw new AudioTooShortError(mp3.length);
    const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
    return new File([mp3.buffer as ArrayBuffer], `audio-${stamp}.mp3`, { type: 'audio/mpeg' });
  } finally {
    void context.close();
  }
}

export interface Recording {
  /** Stops and hands back what was recorded. */
  stop(): Promise<Blob>;
  /** Stops and throws the recording away. */
  cancel(): void;
}

/** Starts recording the microphone (the browser asks for permission the first time). */
export async function startRecording(): Promise<Recording> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const recorder = new MediaRecorder(stream);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  };
  const release = () => {
    for (const track of stream.getTracks()) track.stop();
  };
  recorder.start();
  return {
    stop: () =>
      new Promise<Blob>((resolve, reject) => {
        recorder.onstop = () => {
          release();
          resolve(new Blob(chunks, { type: recorder.mimeType }));
        };
        recorder.onerror = () => {
          release();
          reject(new Error('recording failed'));
        };
        recorder.stop();
      }),
    cancel: () => {
      recorder.onstop = release;
      if (recorder.state !== 'inactive') recorder.stop();
      else release();
    },
  };
}
