/**
 * Who is acting, as use cases need it: the tenant, the user, the role and the plan. The HTTP layer's
 * identity (http/types.ts) carries more (the token, the records it loaded) and fits this shape, so a
 * use case takes the caller without importing the HTTP layer.
 */
import type { Profile } from '#contracts/users';
import type { PlanRecord } from '#storage/plans/plans';

export interface Identity {
  companyId: number;
  userId: number;
  profile: Profile;
  super: boolean;
  plan: PlanRecord;
}
