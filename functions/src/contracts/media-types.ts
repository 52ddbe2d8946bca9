/**
 * The files the product takes, shared by the server (domain/media/file-types.ts checks every upload)
 * and the web app (its file inputs' `accept`), so both name the same list.
 *
 * Everything a user uploads here is sent over WhatsApp in the end (a message's media, a quick reply's,
 * a schedule's, a campaign's attachment, a file list's files): SPEC 3 names what a message carries,
 * image, audio, video and application (a document). Each extension maps to the types a browser may
 * declare for it, the first being the one we store; a file is taken only when its name's extension
 * and its declared type agree. What a browser would run (HTML, SVG, XML, scripts) and programs are
 * in no list, so a page or an `.exe` never reaches the bucket through the app, nor a contact's phone.
 */
export const SENDABLE_FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  // Images WhatsApp shows as photos (SVG is a document that runs script, not an image to preview).
  jpg: ['image/jpeg', 'image/pjpeg'],
  jpeg: ['image/jpeg', 'image/pjpeg'],
  png: ['image/png'],
  gif: ['image/gif'],
  webp: ['image/webp'],
  // Audio: the recorder's mp3, WhatsApp's voice notes (ogg/opus) and the usual phone formats.
  mp3: ['audio/mpeg', 'audio/mp3'],
  ogg: ['audio/ogg', 'application/ogg'],
  opus: ['audio/ogg', 'audio/opus'],
  m4a: ['audio/mp4', 'audio/x-m4a', 'audio/m4a'],
  aac: ['audio/aac', 'audio/x-aac'],
  amr: ['audio/amr'],
  wav: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
  // Video
  mp4: ['video/mp4'],
  '3gp': ['video/3gpp'],
  mov: ['video/quicktime'],
  webm: ['video/webm', 'audio/webm'],
  // Documents customers exchange: PDF, office files, text, spreadsheets, archives.
  pdf: ['application/pdf'],
  txt: ['text/plain'],
  csv: ['text/csv', 'application/vnd.ms-excel', 'text/plain'],
  rtf: ['application/rtf', 'text/rtf'],
  doc: ['application/msword'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  xls: ['application/vnd.ms-excel'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ppt: ['application/vnd.ms-powerpoint'],
  pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  odt: ['application/vnd.oasis.opendocument.text'],
  ods: ['application/vnd.oasis.opendocument.spreadsheet'],
  odp: ['application/vnd.oasis.opendocument.presentation'],
  zip: ['application/zip', 'application/x-zip-compressed'],
};

/** The `accept` attribute of a file input that takes `types` (extensions and their types). */
export function acceptAttribute(types: Readonly<Record<string, readonly string[]>> = SENDABLE_FILE_TYPES): string {
  const values = new Set<string>();
  for (const [ext, mimes] of Object.entries(types)) {
    values.add(`.${ext}`);
    for (const mime of mimes) values.add(mime);
  }
  return [...values].join(',');
}

/**
 * Types the app previews in the page (an <img>, <audio> or <video>): served inline. Everything else
 * is served as a download (Content-Disposition: attachment, typed as plain bytes), whatever its
 * stored type says: an SVG or a page a contact sent must never open as a document of ours.
 */
export function isPreviewableType(contentType: string): boolean {
  const type = baseType(contentType);
  return PREVIEWABLE_IMAGES.has(type) || /^(audio|video)\/[\w.+-]+$/.test(type);
}

const PREVIEWABLE_IMAGES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** `audio/ogg; codecs=opus` is `audio/ogg`. */
export const baseType = (contentType: string): string => (contentType.split(';')[0] ?? '').trim().toLowerCase();
