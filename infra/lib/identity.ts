import type { CognitoTriggerDeclaration } from '@conversa/functions/declarations/cognito-triggers';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  LambdaVersion,
  StringAttribute,
  UserPool,
  type UserPoolClient,
  UserPoolOperation,
} from 'aws-cdk-lib/aws-cognito';
import { type IGrantable, type IRole, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ACCOUNT_RECOVERY_MECHANISM } from './account-recovery.ts';
import { CLIENT_AUTH_FLOWS, CLIENT_READ_ATTRIBUTES, CLIENT_WRITE_ATTRIBUTES } from './client-attributes.ts';
import type { EnvironmentTarget } from './data-table.ts';
import { acknowledge } from './nag.ts';

/**
 * The admin calls the API makes on users (signup, user CRUD, password reset by a super user, ending
 * the older session on a new login, a reset by our own code). Anything else (refresh, revocation) goes
 * through the public client and needs no IAM permission.
 */
export const COGNITO_ADMIN_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminDeleteUser',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminInitiateAuth',
  'cognito-idp:AdminSetUserPassword',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:ListUsers',
] as const;

/** The user pool and the one app client the web app and API clients share. */
export class Identity extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.userPool = new UserPool(this, 'UserPool', {
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      // The tenant and the numeric user id ride in the token; mutable so a super user can move a user.
      customAttributes: {
        companyId: new StringAttribute({ mutable: true }),
        userId: new StringAttribute({ mutable: true }),
      },
      // Signup is POST /companies/cadastro: it creates the company and its admin together.
      selfSignUpEnabled: false,
      passwordPolicy: { minLength: 8, requireUppercase: true, requireLowercase: true, requireDigits: true, requireSymbols: false },
      // Only our API resets a password (account-recovery.ts): Cognito's ForgotPassword is refused.
      accountRecovery: ACCOUNT_RECOVERY[ACCOUNT_RECOVERY_MECHANISM],
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
      // Essentials: the pre token generation trigger may change access tokens only from this plan up
      // (version 2 events); it takes the self-service scope out of them (handlers/triggers/pre-token-generation.ts).
      featurePlan: FeaturePlan.ESSENTIALS,
    });
    acknowledge(
      this.userPool,
      'COG1',
      'SPEC section 5 sets the password rule: at least 8 characters with a digit, a lowercase and an uppercase letter; no symbol is required.',
    );
    acknowledge(this.userPool, 'COG2', 'The product (SPEC) has no MFA step in sign-in or signup; adding it is a product decision.');
    acknowledge(
      this.userPool,
      'COG8',
      'Threat protection needs the Plus feature plan, billed per active user; login abuse is bounded by API throttling and single-session revocation.',
    );
    this.client = this.userPool.addClient('WebClient', {
      // Passwords only through the API's AdminInitiateAuth (client-attributes.ts), refresh always.
      authFlows: CLIENT_AUTH_FLOWS,
      generateSecret: false,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      // Without explicit lists a signed-in user may rewrite its own custom:companyId with its access
      // token (UpdateUserAttributes) and get another company's ids in its next ID token.
      readAttributes: clientAttributes(CLIENT_READ_ATTRIBUTES),
      writeAttributes: clientAttributes(CLIENT_WRITE_ATTRIBUTES),
    });
  }

  /** Pool and client ids for every function: handlers verify tokens against them. */
  bind(target: EnvironmentTarget): void {
    target.addEnvironment('USER_POOL_ID', this.userPool.userPoolId);
    target.addEnvironment('USER_POOL_CLIENT_ID', this.client.userPoolClientId);
  }

  /** The admin actions, on this pool only. */
  grantAdmin(grantee: IGrantable): void {
    this.userPool.grant(grantee, ...COGNITO_ADMIN_ACTIONS);
  }

  /**
   * One of the pool's Lambda triggers (functions/src/declarations/cognito-triggers.ts). The pool names
   * the function, so the function must not name the pool (a cycle): it gets no USER_POOL_ID (the
   * handler takes the pool and client from the event) and its admin grant (the global sign-out only)
   * is a policy of its own, which the function does not wait for, unlike its role's default policy.
   */
  attachTrigger(fn: IFunction & { role?: IRole }, trigger: CognitoTriggerDeclaration): void {
    this.userPool.addTrigger(TRIGGER_OPERATIONS[trigger.operation], fn, trigger.version ? LambdaVersion[trigger.version] : undefined);
    if (!trigger.adminActions.length) return;
    if (!fn.role) throw new Error(`trigger ${trigger.name} has no role to grant`);
    new Policy(this, `${trigger.operation}TriggerAdmin`, {
      roles: [fn.role],
      statements: [new PolicyStatement({ actions: [...trigger.adminActions], resources: [this.userPool.userPoolArn] })],
    });
  }
}

/** The CDK spelling of account-recovery.ts' mechanism. */
const ACCOUNT_RECOVERY: Record<typeof ACCOUNT_RECOVERY_MECHANISM, AccountRecovery> = { admin_only: AccountRecovery.NONE };

const TRIGGER_OPERATIONS: Record<CognitoTriggerDeclaration['operation'], UserPoolOperation> = {
  PostConfirmation: UserPoolOperation.POST_CONFIRMATION,
  // The "config" operation is the one that takes a trigger version (V2_0 changes access tokens).
  PreTokenGeneration: UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG,
};

/** The CDK shape of an attribute list from client-attributes.ts (standard names in CDK's spelling). */
function clientAttributes(names: readonly string[]): ClientAttributes {
  const standard: Record<string, string> = { email: 'email', email_verified: 'emailVerified', name: 'fullname', locale: 'locale' };
  const custom = names.filter((name) => name.startsWith('custom:')).map((name) => name.slice('custom:'.length));
  const known = names.filter((name) => !name.startsWith('custom:'));
  const unknown = known.filter((name) => !standard[name]);
  if (unknown.length) throw new Error(`client-attributes.ts names attributes identity.ts cannot map: ${unknown.join(', ')}`);
  return new ClientAttributes()
    .withStandardAttributes(Object.fromEntries(known.map((name) => [standard[name], true])))
    .withCustomAttributes(...custom);
}
