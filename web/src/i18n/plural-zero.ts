/**
 * Zero takes the plural in Portuguese (issue 25: "0 ticket"). CLDR files 0 under pt's singular
 * (one = 0..1), so i18next chose every `_one` form for a count of 0; Brazilian usage, and our
 * customers, say "0 tickets". i18next looks a `_zero` key up first for a count of 0 in any language,
 * so the pt resources get one, a copy of the `_other` form, wherever a translation did not write its
 * own. The locale files keep the usual `_one`/`_other` pairs.
 */
type Resources = { [key: string]: unknown };

export function zeroTakesPlural(resources: Resources): Resources {
  const out: Resources = {};
  for (const [key, value] of Object.entries(resources)) {
    out[key] = value && typeof value === 'object' && !Array.isArray(value) ? zeroTakesPlural(value as Resources) : value;
  }
  for (const [key, value] of Object.entries(resources)) {
    if (!key.endsWith('_other')) continue;
    const zero = `${key.slice(0, -'_other'.length)}_zero`;
    if (!(zero in out)) out[zero] = value;
  }
  return out;
}
