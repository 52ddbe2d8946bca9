/**
 * The user pool's Lambda triggers, declared once: the CDK stack attaches each handler to its pool
 * operation, and the local stack's cognito-local invokes the same handler through the local Lambda
 * endpoint (infra/local/lambda-invoke.ts). The handler is functions/src/handlers/triggers/<name>.ts.
 */
export interface CognitoTriggerDeclaration {
  name: string;
  /** The pool's trigger, in the spelling of Cognito's LambdaConfig (and of cognito-local's config). */
  operation: 'PostConfirmation' | 'PreTokenGeneration';
  /**
   * The event version Cognito sends. V2_0 (pre token generation only) can change access tokens and
   * needs the Essentials plan; cognito-local speaks only the first version, so the local Cognito
   * proxy runs a V2_0 trigger itself (infra/local/cognito/cognito-proxy.ts).
   */
  version?: 'V2_0';
  /** Cognito admin actions the handler calls (infra/lib/identity.ts grants exactly these). */
  adminActions: readonly 'cognito-idp:AdminUserGlobalSignOut'[];
}

export const cognitoTriggers: readonly CognitoTriggerDeclaration[] = [
  /** After a reset by code, however it was confirmed, every session of the user ends (issue 21). */
  { name: 'post-confirmation', operation: 'PostConfirmation', adminActions: ['cognito-idp:AdminUserGlobalSignOut'] },
  /**
   * Access tokens lose the self-service scope, so Cognito refuses ChangePassword (and every other
   * self-service call) with them: a password changes only through our API (issue 21).
   */
  { name: 'pre-token-generation', operation: 'PreTokenGeneration', version: 'V2_0', adminActions: [] },
];
