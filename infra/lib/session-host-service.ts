import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IgnoreMode } from 'aws-cdk-lib';
import { FlowLogDestination, Vpc } from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import {
  Cluster,
  ContainerImage,
  ContainerInsights,
  CpuArchitecture,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
  OperatingSystemFamily,
} from 'aws-cdk-lib/aws-ecs';
import { Construct } from 'constructs';
import { retainedLogGroup } from './log-groups.ts';
import { acknowledge } from './nag.ts';
import { repoRoot } from './paths.ts';

/** Docker-style patterns from session-host/Dockerfile.dockerignore: the one allowlist for the image context. */
export function sessionHostContextExcludes(): string[] {
  return readFileSync(join(repoRoot, 'session-host/Dockerfile.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * The long-running WhatsApp session host on Fargate, in a private subnet (it only dials out:
 * WhatsApp, DynamoDB, SQS, S3). One task by default; more can be added because sessions are leased.
 */
export class SessionHostService extends Construct {
  readonly service: FargateService;
  readonly taskDefinition: FargateTaskDefinition;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const vpc = new Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 1,
      flowLogs: { all: { destination: FlowLogDestination.toCloudWatchLogs(retainedLogGroup(this, 'FlowLogs')) } },
    });
    const cluster = new Cluster(this, 'Cluster', { vpc, containerInsightsV2: ContainerInsights.ENABLED });
    this.taskDefinition = new FargateTaskDefinition(this, 'Task', {
      cpu: 512,
      memoryLimitMiB: 1024,
      runtimePlatform: { cpuArchitecture: CpuArchitecture.ARM64, operatingSystemFamily: OperatingSystemFamily.LINUX },
    });
    this.taskDefinition.addContainer('session-host', {
      // CDK only stages the context at synth; the image is built by `cdk deploy` (needs Docker there).
      image: ContainerImage.fromAsset(repoRoot, {
        file: 'session-host/Dockerfile',
        exclude: sessionHostContextExcludes(),
        ignoreMode: IgnoreMode.DOCKER,
        platform: Platform.LINUX_ARM64,
      }),
      environment: { SESSION_PROVIDER: 'baileys' },
      logging: LogDrivers.awsLogs({ streamPrefix: 'session-host', logGroup: retainedLogGroup(this, 'Logs') }),
    });
    acknowledge(
      this.taskDefinition,
      'ECS2',
      'The variables are resource names and queue URLs (no secrets); the session auth state lives in DynamoDB, never in the environment.',
    );
    acknowledge(
      this.taskDefinition.obtainExecutionRole(),
      'IAM5[Resource::*]',
      'ecr:GetAuthorizationToken has no resource-level permissions; CDK scopes the image pull and log writes to their resources.',
    );
    this.service = new FargateService(this, 'Service', {
      cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: 1,
      // A replacement task starts before the old one stops; the session lease hands sessions over.
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      circuitBreaker: { enable: true, rollback: true },
      assignPublicIp: false,
    });
  }

  /** The container, for bindings (env var + grant). */
  get container() {
    const container = this.taskDefinition.defaultContainer;
    if (!container) throw new Error('session-host task has no container');
    return container;
  }

  get taskRole() {
    return this.taskDefinition.taskRole;
  }
}
