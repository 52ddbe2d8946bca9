import type { Message } from '@conversa/functions/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { runtimeConfig } from '../../../config/runtime-config.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { currentIdToken } from '../../../lib/auth/tokens.ts';

/*
 * Media is private (SPEC 7: fetched from the backend's /public/{path}, images as blobs): the API
 * checks the tenant and redirects to a short-lived bucket URL. The shared client speaks JSON only,
 * so binary reads and multipart uploads (with progress) live here, with its token and 403 rules.
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

/** An object URL for the media while the component shows it. */
export function useMediaObjectUrl(url: string | null | undefined, enabled = true): { src?: string; failed: boolean } {
  const blob = useQuery({
    queryKey: ['media', url] as const,
    queryFn: () => fetchMediaBlob(url ?? ''),
    enabled: Boolean(url) && enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 5 * 60_000,
    retry: 1,
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

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

function postForm(ticketId: number, form: FormData, token: string | undefined, onProgress?: (ratio: number) => void) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${runtimeConfig().apiUrl}/messages/${ticketId}`);
    request.setRequestHeader('Accept', 'application/json');
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    };
    request.onload = () => resolve({ status: request.status, body: parseBody(request.responseText) });
    request.onerror = () => reject(new ApiError(0, undefined));
    request.send(form);
  });
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

/** POST /messages/{ticketId} as form data (SPEC 7: medias, body, fromMe), reporting upload progress. */
export async function sendMediaMessage(
  ticketId: number,
  send: MediaSend,
  onProgress?: (ratio: number) => void,
): Promise<{ messages: Message[] } | undefined> {
  const form = new FormData();
  for (const file of send.files) form.append('medias', file, file.name);
  form.append('body', send.body);
  form.append('fromMe', 'true');
  form.append('signMessage', String(send.signMessage));
  if (send.quotedMsgId) form.append('quotedMsgId', send.quotedMsgId);
  if (send.asVoice) form.append('asVoice', 'true');
  let answer = await postForm(ticketId, form, (await currentIdToken())?.jwt, onProgress);
  if (answer.status === 403) answer = await postForm(ticketId, form, (await currentIdToken(true))?.jwt, onProgress);
  if (answer.status >= 200 && answer.status < 300) return answer.body as { messages: Message[] } | undefined;
  throw new ApiError(answer.status, answer.body as never);
}
