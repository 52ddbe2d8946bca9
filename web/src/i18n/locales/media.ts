/**
 * Uploads (issue 21): what the API answers when a file is not of a type the product sends
 * (functions/src/contracts/media-types.ts), spread into each locale's backendErrors (SPEC 8).
 */
const es = {
  ERR_FILE_TYPE_NOT_ALLOWED:
    'Este tipo de archivo no se puede enviar. Use una imagen (JPG, PNG, GIF, WebP), un audio, un video (MP4, 3GP, MOV, WebM) o un documento (PDF, TXT, CSV, Office, OpenDocument, ZIP).',
};

const en: typeof es = {
  ERR_FILE_TYPE_NOT_ALLOWED:
    'This file type cannot be sent. Use an image (JPG, PNG, GIF, WebP), an audio file, a video (MP4, 3GP, MOV, WebM) or a document (PDF, TXT, CSV, Office, OpenDocument, ZIP).',
};

const pt: typeof es = {
  ERR_FILE_TYPE_NOT_ALLOWED:
    'Este tipo de arquivo não pode ser enviado. Use uma imagem (JPG, PNG, GIF, WebP), um áudio, um vídeo (MP4, 3GP, MOV, WebM) ou um documento (PDF, TXT, CSV, Office, OpenDocument, ZIP).',
};

export const mediaErrorLocales = { es, en, pt };
