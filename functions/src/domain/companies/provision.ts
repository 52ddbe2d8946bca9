/**
 * Creating a company writes several records (company + name guard, settings, its first admin in
 * Cognito and in the table). Each step that succeeded is undone if a later one fails, so signup
 * never leaves a company without an admin or a name taken by nothing.
 */
import type { CompanyInput } from '#contracts/companies';
import { defaultCompanySchedules } from '#contracts/schedules';
import { seedCompanySettings } from '#domain/settings/settings';
import { type NewUser, provisionUser, undo } from '#domain/users/provision';
import * as companies from '#storage/companies/companies';
import { purgeTenantPartition } from '#storage/companies/tenant-data';

export type NewCompany = Omit<CompanyInput, 'password' | 'extendDueDate'> & { trialExpiration?: string | null };

export async function provisionCompany(
  input: NewCompany,
  admin: Omit<NewUser, 'profile'> | undefined,
  now = new Date(),
): Promise<companies.CompanyRecord> {
  const at = now.toISOString();
  const { campaignsEnabled, trialExpiration, ...fields } = input;
  const record: companies.CompanyRecord = {
    ...fields,
    id: await companies.newCompanyId(),
    trialExpiration: trialExpiration ?? null,
    campaignsEnabled,
    schedules: defaultCompanySchedules,
    createdAt: at,
    updatedAt: at,
  };
  await companies.createCompany(record);
  try {
    await seedCompanySettings(record.id, { campaignsEnabled: String(campaignsEnabled) });
    if (admin) await provisionUser(record.id, { ...admin, profile: 'admin' }, { now });
  } catch (error) {
    await undo('delete company', () => companies.deleteCompany(record.id));
    await undo('purge company partition', () => purgeTenantPartition(record.id));
    throw error;
  }
  return record;
}
