import { RemovalPolicy } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledge } from './nag.ts';

/**
 * The region's key for tenant secrets at rest (AI API keys, integration credentials; see
 * functions/src/commons/secrets.ts): a generated random string whose SHA-256 is the AES-256-GCM key.
 * Only the Lambdas that seal or open those secrets get its ARN and read access.
 */
export class SecretsKey extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new Secret(this, 'Key', {
      description: 'Conversa: key sealing tenant secrets (AI API keys, integration credentials)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      // Losing it makes every stored API key unreadable: a stack deletion keeps it.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      this.secret,
      'SMG4',
      'Not rotated automatically: every stored value is sealed with it; a rotation means re-sealing them under a new "v2" format, a deliberate migration.',
    );
  }

  bind(fn: LambdaFunction & IGrantable): void {
    fn.addEnvironment('SECRETS_KEY_ARN', this.secret.secretArn);
    this.secret.grantRead(fn);
  }
}
