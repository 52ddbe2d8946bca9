/**
 * The first day's checklist (issue 25 "Guide the first day"): what a new company's admin still has
 * to do, each step ticked from the company's own data. No zod here: the dashboard's chunk reads
 * the keys and types; the request schema is in onboarding-requests.ts.
 */
export const onboardingStepKeys = ['connection', 'queue', 'attendant', 'conversation', 'quickReply', 'businessHours'] as const;
export type OnboardingStepKey = (typeof onboardingStepKeys)[number];

export interface OnboardingStep {
  key: OnboardingStepKey;
  done: boolean;
}

/** GET /onboarding and PUT /onboarding answer this. */
export interface Onboarding {
  steps: OnboardingStep[];
  /** An admin closed the checklist: the company never sees it again. */
  dismissed: boolean;
}
