/** Company settings: everyone reads them, admins change them; admins read the audit trail. */
import { auditQuerySchema } from '#contracts/audit';
import { updateSettingSchema } from '#contracts/settings';
import { exportAuditCsv, listAuditPage } from '#domain/audit/read';
import { assertSettingKey, listCompanySettings, updateCompanySetting } from '#domain/settings/settings';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { textFile } from '#http/result';
import { parseInput } from '#http/validate';

export const handler = httpHandler('settings', {
  'GET /settings': async (ctx) => {
    const identity = requireIdentity(ctx);
    return listCompanySettings(identity.companyId, { includeSecrets: identity.super });
  },
  'PUT /settings/{key}': async (ctx) => {
    const identity = requireIdentity(ctx);
    const key = ctx.params.key ?? '';
    // An unknown key is a 404 whatever the body holds.
    assertSettingKey(key);
    const { value } = parseInput(updateSettingSchema, ctx.body ?? {});
    return updateCompanySetting(identity.companyId, key, value, identity.super);
  },
  'GET /audit': async (ctx) => listAuditPage(requireIdentity(ctx), parseInput(auditQuerySchema, ctx.query, 'query')),
  'GET /audit/export.csv': async (ctx) => {
    const { csv, truncated } = await exportAuditCsv(requireIdentity(ctx), parseInput(auditQuerySchema, ctx.query, 'query'));
    // Older rows left out (row or size limit): the client can say so and narrow the dates.
    return textFile(csv, 'text/csv; charset=utf-8', 'audit.csv', truncated ? { 'x-export-truncated': 'true' } : {});
  },
});
