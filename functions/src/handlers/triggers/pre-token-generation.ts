/**
 * Cognito's pre token generation trigger, event version 2 (infra/lib/identity.ts attaches it as
 * V2_0, which needs the Essentials feature plan; the local stack's Cognito proxy runs it the same
 * way). It removes the `aws.cognito.signin.user.admin` scope from every access token the pool issues,
 * at sign-in and at each refresh.
 *
 * Why (issue 21, "every way a password changes must end every session of that user and pass our
 * throttles"): that scope is what lets the holder of an access token call Cognito's self-service
 * operations straight, ChangePassword first. ChangePassword fires no Cognito trigger, so a password
 * changed there would leave the user's other sessions alive and pass none of our limits. Without the
 * scope Cognito refuses every such call (NotAuthorizedException "Access Token does not have required
 * scopes"), and the only way left to change a password is our API (PUT /users/{id}, the reset routes),
 * which ends the sessions, counts attempts and writes the audit trail. Nothing of ours needs the scope:
 * the web app reads the user from GET /auth/me, never from Amplify's fetchUserAttributes, and signs out
 * by revoking its refresh token (RevokeToken takes no access token).
 */
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';

/** The scope that authorises Cognito's user self-service API (ChangePassword, UpdateUserAttributes, GetUser...). */
export const SELF_SERVICE_SCOPE = 'aws.cognito.signin.user.admin';

export async function handler(event: PreTokenGenerationV2TriggerEvent): Promise<PreTokenGenerationV2TriggerEvent> {
  event.response = {
    ...event.response,
    claimsAndScopeOverrideDetails: {
      ...event.response?.claimsAndScopeOverrideDetails,
      accessTokenGeneration: { scopesToSuppress: [SELF_SERVICE_SCOPE] },
    },
  };
  return event;
}
