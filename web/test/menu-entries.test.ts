/**
 * The side menu tells its entries apart (issue 25, minors): the campaigns' "Settings" sat in the
 * same menu as the company's "Settings", with the same gear icon. Every entry a user can be shown
 * (main, campaigns group, administration) has its own label in pt, en and es, and its own icon.
 */
import { describe, expect, it } from 'vitest';
import { adminItems, campaignGroup, mainItems } from '../src/app/layout/menu-items.ts';
import en from '../src/i18n/locales/en.ts';
import es from '../src/i18n/locales/es.ts';
import pt from '../src/i18n/locales/pt.ts';

const entries = [...mainItems, ...campaignGroup.items, ...adminItems];
const repeated = <T>(values: T[]) => values.filter((value, i) => values.indexOf(value) !== i);

describe('side menu entries', () => {
  it.each([
    ['pt', pt],
    ['en', en],
    ['es', es],
  ])('have distinct labels in %s', (_language, locale) => {
    const labels = entries.map((entry) => (locale.menu as Record<string, string>)[entry.key]);
    expect(labels.every(Boolean)).toBe(true);
    expect(repeated(labels)).toEqual([]);
  });

  it("name the campaigns' settings as such", () => {
    expect([pt.menu.campaignsConfig, en.menu.campaignsConfig, es.menu.campaignsConfig]).toEqual([
      'Configurações de campanha',
      'Campaign settings',
      'Configuración de campañas',
    ]);
  });

  it('have distinct icons', () => {
    expect(repeated(entries.map((entry) => entry.icon)).map((icon) => entries.find((entry) => entry.icon === icon)?.key)).toEqual([]);
  });
});
