import { acceptAttribute } from '@conversa/functions/contracts/media-types';
import type { MediaUpload } from '@conversa/functions/contracts/messages';
import { ApiError, api } from './api-client.ts';

/*
 * Files go straight to the private bucket (ARCHITECTURE: media in S3, presigned), never through the
 * API, whose functions take at most 6 MB a request: the API grants a presigned PUT, the browser
 * PUTs the bytes, then names the key it was given.
 */

/**
 * The file inputs' `accept` for anything sent over WhatsApp (a message, quick reply, schedule,
 * campaign, file list): the server's own list, so the picker offers what the API takes.
 */
export const SENDABLE_ACCEPT = acceptAttribute();

/** PUTs one file to its presigned URL, reporting progress (fetch has no upload progress). */
export function putFile(upload: MediaUpload, file: File, onProgress: (loaded: number) => void = () => {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(upload.method, upload.uploadUrl);
    for (const [name, value] of Object.entries(upload.headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () => (request.status >= 200 && request.status < 300 ? resolve() : reject(new ApiError(request.status, undefined)));
    request.onerror = () => reject(new ApiError(0, undefined));
    request.send(file);
  });
}

/** A grant for one file: POST `<ticket or record>/uploads`. */
export const requestUpload = (path: string, file: File) =>
  api<MediaUpload>(`${path}/uploads`, {
    method: 'POST',
    body: { fileName: file.name, contentType: file.type || 'application/octet-stream', size: file.size },
  });

/**
 * The one file a record carries (a quick message's, a schedule's): grant, PUT, then
 * POST `<record>/media-upload` with the key. Answers the record as saved.
 */
export async function uploadAttachment<T>(recordPath: string, file: File): Promise<T> {
  const upload = await requestUpload(recordPath, file);
  await putFile(upload, file);
  return api<T>(`${recordPath}/media-upload`, { method: 'POST', body: { key: upload.key } });
}
