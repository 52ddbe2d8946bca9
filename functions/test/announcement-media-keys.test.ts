/**
 * Announcement images are the platform's (issue 12): their keys sit outside every tenant's prefix,
 * are recognised only in the shape granted for one announcement, and no tenant ever owns them.
 */
import { describe, expect, it } from 'vitest';
import { isTenantKey, mediaOwner, platformMediaOwner } from '#domain/media/keys';

const UPLOAD = '0b9e4c1e-8a47-4a53-9d3c-2f0e6c1d7a11';

describe('announcement media keys', () => {
  it('names the announcement of a key in its granted shape', () => {
    expect(platformMediaOwner(`announcements/12/${UPLOAD}/aviso.png`)).toEqual({ kind: 'announcement', id: 12 });
  });

  it('refuses every other shape: traversal, extra or missing segments, other areas, controls', () => {
    for (const key of [
      `announcements/12/${UPLOAD}`,
      `announcements/12/${UPLOAD}/a/b.png`,
      `announcements/12/not-an-upload/aviso.png`,
      `announcements/0/${UPLOAD}/aviso.png`,
      `announcements/x/${UPLOAD}/aviso.png`,
      `announcements/12/${UPLOAD}/../aviso.png`,
      `announcements/12/../../7/${UPLOAD}/aviso.png`,
      `announcements//12/${UPLOAD}/aviso.png`,
      `announcements/12/${UPLOAD}/a\u0000.png`,
      `announcements/12/${UPLOAD}/a\\b.png`,
      `7/announcements/12/${UPLOAD}/aviso.png`,
      `/announcements/12/${UPLOAD}/aviso.png`,
      `announcements-x/12/${UPLOAD}/aviso.png`,
    ]) {
      expect(platformMediaOwner(key), key).toBeUndefined();
    }
  });

  it('is no tenant key, and a tenant key is no announcement', () => {
    const key = `announcements/12/${UPLOAD}/aviso.png`;
    for (const companyId of [1, 7, 12]) {
      expect(isTenantKey(companyId, key)).toBe(false);
      expect(mediaOwner(companyId, key)).toBeUndefined();
    }
    expect(platformMediaOwner(`7/quick-messages/12/${UPLOAD}/aviso.png`)).toBeUndefined();
  });
});
