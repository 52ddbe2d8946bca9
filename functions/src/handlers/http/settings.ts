/** Company settings: everyone reads them, admins change them. */
import { updateSettingSchema } from '#contracts/settings';
import { assertSettingKey, listCompanySettings, updateCompanySetting } from '#domain/settings/settings';
import { isAdmin, requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { parseInput } from '#http/validate';

export const handler = httpHandler('settings', {
  'GET /settings': async (ctx) => {
    const identity = requireIdentity(ctx);
    return listCompanySettings(identity.companyId, { includeSecrets: isAdmin(identity) });
  },
  'PUT /settings/{key}': async (ctx) => {
    const identity = requireIdentity(ctx);
    const key = ctx.params.key ?? '';
    // An unknown key is a 404 whatever the body holds.
    assertSettingKey(key);
    const { value } = parseInput(updateSettingSchema, ctx.body ?? {});
    return updateCompanySetting(identity.companyId, key, value);
  },
});
