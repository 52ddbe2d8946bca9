import * as z from 'zod';

/** PUT /onboarding: an admin closes (or brings back) the first day's checklist for the company. */
export const onboardingUpdateSchema = z.strictObject({ dismissed: z.boolean() });
export type OnboardingUpdate = z.infer<typeof onboardingUpdateSchema>;
