import { Duration } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import { ESM_REQUIRE_BANNER, EXTERNAL_MODULES, LAMBDA_NODE_TARGET, MAIN_FIELDS } from './bundling.ts';
import { retainedLogGroup } from './log-groups.ts';
import { acknowledge } from './nag.ts';
import { lockFile, repoRoot } from './paths.ts';

export const LAMBDA_RUNTIME = Runtime.NODEJS_22_X;

/** Same options as the bundle bench (bundling.ts), in NodejsFunction's vocabulary. Local esbuild, never Docker. */
export const lambdaBundling: BundlingOptions = {
  format: OutputFormat.ESM,
  target: LAMBDA_NODE_TARGET,
  banner: ESM_REQUIRE_BANNER,
  mainFields: MAIN_FIELDS,
  externalModules: EXTERNAL_MODULES,
  minify: true,
  sourceMap: true,
  // Stack traces need file and line, not the sources: keeps the .map small.
  sourcesContent: false,
  forceDockerBundling: false,
};

export interface ConversaFunctionProps {
  /** Absolute path of the handler module (exports `handler`). */
  entry: string;
  description: string;
  timeout?: Duration;
}

/**
 * Every Lambda of Conversa: arm64, nodejs22.x, 512 MB, ESM bundle, its own log group with retention
 * and its own role that may write only to that group (no AWSLambdaBasicExecutionRole, whose
 * `logs:*` on every group is broader than a handler needs). Grants are added by the bindings.
 */
export class ConversaFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ConversaFunctionProps) {
    const logGroup = retainedLogGroup(scope, `${id}Logs`);
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of the ${id} Lambda`,
    });
    logGroup.grantWrite(role);
    super(scope, id, {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: LAMBDA_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: props.timeout ?? Duration.seconds(15),
      role,
      logGroup,
      projectRoot: repoRoot,
      depsLockFilePath: lockFile,
      bundling: lambdaBundling,
    });
    acknowledge(
      this,
      'L1',
      'nodejs22.x is pinned on purpose (TOOLCHAIN.md): it ships AWS SDK v3, which the bundles leave external, and matches the Node the code is tested on; moving to a newer runtime is a deliberate, tested change.',
    );
  }
}
