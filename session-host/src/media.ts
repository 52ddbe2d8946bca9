/**
 * Where inbound media lands in the media bucket. The key starts with the tenant so the API that
 * serves media privately can refuse another tenant's key by its prefix alone.
 */
const extensions: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'video/mp4': 'mp4',
  'application/pdf': 'pdf',
};

export function extensionFor(mimetype: string, filename?: string): string {
  const fromName = filename?.match(/\.([A-Za-z0-9]{1,8})$/)?.[1];
  if (fromName) return fromName.toLowerCase();
  const base = mimetype.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    extensions[base] ??
    base
      .split('/')[1]
      ?.replace(/[^a-z0-9]/g, '')
      .slice(0, 8) ??
    'bin'
  );
}

export function inboundMediaKey(input: {
  companyId: number;
  connectionId: number;
  waMessageId: string;
  mimetype: string;
  filename?: string;
}): string {
  const safeId = input.waMessageId.replace(/[^A-Za-z0-9_-]/g, '_');
  return `${input.companyId}/whatsapp/${input.connectionId}/${safeId}.${extensionFor(input.mimetype, input.filename)}`;
}
