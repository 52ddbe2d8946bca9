import type { Message } from '@conversa/functions/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { runtimeConfig } from '../../../config/runtime-config.ts';
import { ApiError, api } from '../../../lib/api-client.ts';
import { currentIdToken } from '../../../lib/auth/tokens.ts';
import { putFile, requestUpload } from '../../../lib/direct-upload.ts';

/*
 * Media is private (SPEC 7: fetched from the backend's /public/{path}, images as blobs): the API
 * checks the tenant and redirects to a short-lived bucket URL. The shared client speaks JSON only,
 * so binary reads live here; uploads go straight to the bucket (lib/direct-upload.ts).
 */

/** A message's media URL as the API gives it (`/public/<key>`), made absolute against the API. */
export function mediaHref(url: string): string {
  return /^(https?:|blob:|data:)/i.test(url) ? url : `${runtimeConfig().apiUrl}${url.startsWith('/') ? '' : '/'}${url}`;
}

const needsToken = (href: string) => href.startsWith(runtimeConfig().apiUrl);

async function getBlob(href: string, forceRefresh: boolean): Promise<Response> {
  const headers: Record<string, string> = {};
  if (needsToken(href)) {
    const token = await currentIdToken(forceRefresh);
    if (token) headers.Authorization = `Bearer ${token.jwt}`;
  }
  return fetch(href, { headers });
}

export async function fetchMediaBlob(url: string): Promise<Blob> {
  const href = mediaHref(url);
  let response = await getBlob(href, false);
  if (response.status === 403) response = await getBlob(href, true);
  if (!response.ok) throw new ApiError(response.status, undefined);
  return response.blob();
}

/** A media file's bytes, by its `/public/...` route (or absolute URL). */
export const mediaKeys = {
  blob: (url: string | null | undefined) => ['media', url] as const,
};

/** An object URL for the media while the component shows it. */
export function useMediaObjectUrl(url: string | null | undefined, enabled = true): { src?: string; failed: boolean } {
  const blob = useQuery({
    queryKey: mediaKeys.blob(url),
    queryFn: () => fetchMediaBlob(url ?? ''),
    enabled: Boolean(url) && enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 5 * 60_000,
  });
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    if (!blob.data) return;
    const objectUrl = URL.createObjectURL(blob.data);
    setSrc(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [blob.data]);
  return { src, failed: blob.isError };
}

/** Saves a media file under its name (the "download" of a file message). */
export async function downloadMedia(url: string, fileName: string): Promise<void> {
  const blob = await fetchMediaBlob(url);
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 1000);
}

export interface MediaSend {
  files: File[];
  /** Caption of the first file. */
  body: string;
  quotedMsgId?: string;
  signMessage: boolean;
  /** Audio files go out as a voice note (the recorder's mp3). */
  asVoice?: boolean;
}

/**
 * Files go straight to the private bucket (ARCHITECTURE: media in S3, presigned), never through the
 * API, whose functions take at most 6 MB a request: one upload grant per file (POST
 * /messages/{ticketId}/uploads), a PUT of each with progress over all bytes, then the send names the
 * keys in order (POST /messages/{ticketId} mediaUrls), the body captioning the first.
 */
export async function sendMediaMessage(
  ticketId: number,
  send: MediaSend,
  onProgress?: (ratio: number) => void,
): Promise<{ messages: Message[] } | undefined> {
  const total = send.files.reduce((sum, file) => sum + file.size, 0) || 1;
  const loaded = send.files.map(() => 0);
  const report = () => onProgress?.(Math.min(1, loaded.reduce((a, b) => a + b, 0) / total));
  const keys: string[] = [];
  for (const [i, file] of send.files.entries()) {
    const upload = await requestUpload(`/messages/${ticketId}`, file);
    await putFile(upload, file, (bytes) => {
      loaded[i] = bytes;
      report();
    });
    loaded[i] = file.size;
    report();
    keys.push(upload.key);
  }
  return api<{ messages: Message[] }>(`/messages/${ticketId}`, {
    method: 'POST',
    body: {
      body: send.body,
      mediaUrls: keys,
      signMessage: send.signMessage,
      ...(send.quotedMsgId ? { quotedMsg: { id: send.quotedMsgId } } : {}),
      ...(send.asVoice ? { asVoice: true } : {}),
    },
  });
}
