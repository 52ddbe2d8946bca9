/**
 * The help videos' embed rule (issue 12): only a YouTube or Vimeo id is ever embedded, on the
 * provider's own embed URL; every other value (scripts, other hosts, tricks in the link) embeds nothing.
 */
import { describe, expect, it } from 'vitest';
import { videoEmbed } from '../src/features/helps/lib/video-embed.ts';

const YT = 'dQw4w9WgXcQ';
const ytEmbed = {
  provider: 'youtube',
  id: YT,
  embedUrl: `https://www.youtube-nocookie.com/embed/${YT}`,
  thumbnailUrl: `https://img.youtube.com/vi/${YT}/hqdefault.jpg`,
};

describe('videoEmbed', () => {
  it('turns a YouTube id or link into the embed URL and the thumbnail', () => {
    for (const value of [
      YT,
      ` ${YT} `,
      `https://www.youtube.com/watch?v=${YT}`,
      `https://youtube.com/watch?v=${YT}&t=42s`,
      `http://m.youtube.com/watch?v=${YT}`,
      `https://youtu.be/${YT}?si=abc`,
      `https://www.youtube.com/embed/${YT}`,
      `https://www.youtube.com/shorts/${YT}`,
      `https://www.youtube-nocookie.com/embed/${YT}`,
      `youtube.com/watch?v=${YT}`,
    ]) {
      expect(videoEmbed(value), value).toEqual(ytEmbed);
    }
  });

  it('turns a Vimeo id or link into the player URL, without a thumbnail', () => {
    const embed = { provider: 'vimeo', id: '76979871', embedUrl: 'https://player.vimeo.com/video/76979871', thumbnailUrl: null };
    for (const value of ['76979871', 'https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871?h=1']) {
      expect(videoEmbed(value), value).toEqual(embed);
    }
  });

  it('refuses scripts, other schemes and markup', () => {
    for (const value of [
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)//youtube.com/watch?v=dQw4w9WgXcQ',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '<script>alert(1)</script>',
      '"><img src=x onerror=alert(1)>',
      `${YT}"><script>`,
      `https://www.youtube.com/watch?v=${YT}"onload="alert(1)`,
      `https://www.youtube.com/embed/${YT}<script>`,
      'file:///etc/passwd',
      `ftp://youtube.com/watch?v=${YT}`,
    ]) {
      expect(videoEmbed(value), value).toBeNull();
    }
  });

  it('refuses unknown hosts and look-alikes, credentials and ports', () => {
    for (const value of [
      'https://evil.example/embed.html',
      `https://youtube.com.evil.example/watch?v=${YT}`,
      `https://evilyoutube.com/watch?v=${YT}`,
      `https://evil.example/?u=https://youtube.com/watch?v=${YT}`,
      `https://www.youtube.com@evil.example/watch?v=${YT}`,
      `https://user:pass@www.youtube.com/watch?v=${YT}`,
      `https://www.youtube.com:8443/watch?v=${YT}`,
      `https://www.youtube.com/redirect?q=https://evil.example`,
      `https://www.youtube.com/watch?v=short`,
      'https://vimeo.com/channels/staffpicks/1',
      'https://player.vimeo.com/video/abc',
      '',
      '   ',
      null,
      undefined,
    ]) {
      expect(videoEmbed(value), String(value)).toBeNull();
    }
  });
});
