import { AssetHashType, DockerImage, Duration } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { ENTRY_FILE, lambdaBuildOptions } from './bundling.ts';
import { retainedLogGroup } from './log-groups.ts';
import { acknowledge } from './nag.ts';
import { repoRoot } from './paths.ts';

export const LAMBDA_RUNTIME = Runtime.NODEJS_22_X;
/** Every function's size and processor (bench:cost prices a GB-second of this architecture). */
export const LAMBDA_MEMORY_MB = 512;
export const LAMBDA_ARCHITECTURE = Architecture.ARM_64;

/**
 * The function's code: bundled here with the local esbuild and the bench's options (bundling.ts).
 * Not NodejsFunction: it writes one `--outfile`, and the bundle is split into chunks (code splitting
 * needs an output directory). Like NodejsFunction, the asset is hashed by its output, and the repo
 * root is only the nominal source (never fingerprinted).
 */
export function lambdaCode(entry: string): Code {
  return Code.fromAsset(repoRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Required by the API, never pulled: local bundling always succeeds or throws.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
      local: {
        tryBundle(outputDir: string): boolean {
          buildSync(lambdaBuildOptions(entry, outputDir));
          return true;
        },
      },
    },
  });
}

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
export class ConversaFunction extends LambdaFunction {
  constructor(scope: Construct, id: string, props: ConversaFunctionProps) {
    const logGroup = retainedLogGroup(scope, `${id}Logs`);
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of the ${id} Lambda`,
    });
    logGroup.grantWrite(role);
    super(scope, id, {
      code: lambdaCode(props.entry),
      handler: `${ENTRY_FILE.replace(/\.mjs$/, '')}.handler`,
      description: props.description,
      runtime: LAMBDA_RUNTIME,
      architecture: LAMBDA_ARCHITECTURE,
      memorySize: LAMBDA_MEMORY_MB,
      timeout: props.timeout ?? Duration.seconds(15),
      role,
      logGroup,
    });
    acknowledge(
      this,
      'L1',
      'nodejs22.x is pinned on purpose (TOOLCHAIN.md): it matches the Node the code is tested on; moving to a newer runtime is a deliberate, tested change.',
    );
  }
}
