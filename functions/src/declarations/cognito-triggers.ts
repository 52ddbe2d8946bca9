/**
 * The user pool's Lambda triggers, declared once: the CDK stack attaches each handler to its pool
 * operation, and the local stack's cognito-local invokes the same handler through the local Lambda
 * endpoint (infra/local/lambda-invoke.ts). The handler is functions/src/handlers/triggers/<name>.ts.
 */
export interface CognitoTriggerDeclaration {
  name: string;
  /** The pool's trigger, in the spelling of Cognito's LambdaConfig (and of cognito-local's config). */
  operation: 'PostConfirmation';
}

export const cognitoTriggers: readonly CognitoTriggerDeclaration[] = [
  /** After a reset by code, however it was confirmed, every session of the user ends (issue 21). */
  { name: 'post-confirmation', operation: 'PostConfirmation' },
];
