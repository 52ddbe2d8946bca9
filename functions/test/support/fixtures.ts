/** Records with sensible defaults, for tests that need a company, plan or user in the table. */
import { defaultCompanySchedules } from '../../src/contracts/schedules.ts';
import type { CompanyRecord } from '../../src/storage/companies/companies.ts';
import type { PlanRecord } from '../../src/storage/plans/plans.ts';
import type { UserRecord } from '../../src/storage/users/users.ts';

const now = () => new Date().toISOString();

export function planFixture(overrides: Partial<PlanRecord> = {}): PlanRecord {
  return {
    id: 1,
    name: 'Plano 1',
    users: 0,
    connections: 0,
    queues: 0,
    campaigns: 0,
    schedules: 0,
    value: 0,
    useCampaigns: true,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: true,
    useKanban: true,
    useOpenAi: true,
    useIntegrations: true,
    createdAt: now(),
    updatedAt: now(),
    ...overrides,
  };
}

export function companyFixture(overrides: Partial<CompanyRecord> = {}): CompanyRecord {
  return {
    id: 1,
    name: 'Empresa 1',
    email: 'empresa1@example.com',
    phone: '',
    planId: 1,
    status: true,
    dueDate: null,
    trialExpiration: null,
    recurrence: 'MENSAL',
    campaignsEnabled: true,
    addressZipCode: '',
    addressStreet: '',
    addressState: '',
    addressCity: '',
    addressDistrict: '',
    schedules: defaultCompanySchedules,
    createdAt: now(),
    updatedAt: now(),
    ...overrides,
  };
}

/** The Cognito `sub` userFixture gives a user: a token for that user must carry it. */
export const subOf = (companyId: number, userId: number): string => `sub-${companyId}-${userId}`;

export function userFixture(overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    id: 1,
    name: 'Ana',
    email: 'ana@example.com',
    profile: 'admin',
    super: false,
    companyId: 1,
    allTicket: 'desabled',
    whatsappId: null,
    queueIds: [],
    online: false,
    createdAt: now(),
    updatedAt: now(),
    sessionIat: 0,
    ...overrides,
    // Each user its own Cognito subject, as in the pool; tokens name it (see subOf).
    cognitoSub: overrides.cognitoSub ?? subOf(overrides.companyId ?? 1, overrides.id ?? 1),
  };
}
