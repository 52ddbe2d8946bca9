/**
 * A help's `video` (SPEC 3: a video code) made safe to show. It may be a bare YouTube id or a link a
 * super user pasted; either way we never embed what we were given: only an id of a provider we know
 * is taken out of it, and the embed URL and the thumbnail are built from that id on the provider's
 * fixed host. Anything else (another host, `javascript:`, `data:`, markup, credentials or odd ports
 * in the link) gives no embed at all, so no arbitrary script or page ever lands in our iframe.
 */

export type VideoProvider = 'youtube' | 'vimeo';

export interface VideoEmbed {
  provider: VideoProvider;
  id: string;
  /** What the sandboxed iframe loads. */
  embedUrl: string;
  /** A still for the card, when the provider gives one by URL alone (YouTube does, Vimeo needs its API). */
  thumbnailUrl: string | null;
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{1,12}$/;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);
const VIMEO_HOSTS = new Set(['vimeo.com', 'www.vimeo.com', 'player.vimeo.com']);

const youtube = (id: string): VideoEmbed => ({
  provider: 'youtube',
  id,
  embedUrl: `https://www.youtube-nocookie.com/embed/${id}`,
  thumbnailUrl: `https://img.youtube.com/vi/${id}/hqdefault.jpg`,
});

const vimeo = (id: string): VideoEmbed => ({ provider: 'vimeo', id, embedUrl: `https://player.vimeo.com/video/${id}`, thumbnailUrl: null });

function youtubeIdOf(url: URL): string | undefined {
  const [first = '', second = ''] = url.pathname.split('/').filter(Boolean);
  if (url.hostname === 'youtu.be') return first;
  if (!YOUTUBE_HOSTS.has(url.hostname)) return undefined;
  if (url.pathname === '/watch') return url.searchParams.get('v') ?? undefined;
  if (['embed', 'shorts', 'live', 'v'].includes(first)) return second;
  return undefined;
}

function vimeoIdOf(url: URL): string | undefined {
  if (!VIMEO_HOSTS.has(url.hostname)) return undefined;
  const parts = url.pathname.split('/').filter(Boolean);
  if (url.hostname === 'player.vimeo.com') return parts[0] === 'video' ? parts[1] : undefined;
  return parts.length === 1 ? parts[0] : undefined;
}

/** The embed for a help's video, or null when it is not one of a known provider. */
export function videoEmbed(video: string | null | undefined): VideoEmbed | null {
  const value = (video ?? '').trim();
  if (!value) return null;
  if (YOUTUBE_ID.test(value)) return youtube(value);
  if (VIMEO_ID.test(value)) return vimeo(value);
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.port) return null;
  const youtubeId = youtubeIdOf(url);
  if (youtubeId !== undefined) return YOUTUBE_ID.test(youtubeId) ? youtube(youtubeId) : null;
  const vimeoId = vimeoIdOf(url);
  if (vimeoId !== undefined) return VIMEO_ID.test(vimeoId) ? vimeo(vimeoId) : null;
  return null;
}

/**
 * What the iframe may do: the providers' players need their scripts and their own origin (which is
 * theirs, not ours: the iframe is cross-origin) and may go full screen; no top navigation, no forms,
 * no popups escaping the sandbox.
 */
export const EMBED_SANDBOX = 'allow-scripts allow-same-origin allow-presentation';
export const EMBED_ALLOW = 'autoplay; encrypted-media; picture-in-picture; fullscreen';
