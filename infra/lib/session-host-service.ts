import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IgnoreMode } from 'aws-cdk-lib';
import { SecurityGroup } from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import {
  Cluster,
  type ContainerDefinition,
  ContainerImage,
  ContainerInsights,
  CpuArchitecture,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
  OperatingSystemFamily,
} from 'aws-cdk-lib/aws-ecs';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { EnvironmentTarget } from './data-table.ts';
import { retainedLogGroup } from './log-groups.ts';
import { acknowledge } from './nag.ts';
import { repoRoot } from './paths.ts';
import { SessionHostNetwork } from './session-host-network.ts';

/** One session-host task's size (0.5 vCPU, 1 GiB, Graviton): bench:cost prices its share per session. */
export const SESSION_HOST_TASK = { cpu: 512, memoryLimitMiB: 1024, cpuArchitecture: CpuArchitecture.ARM64 } as const;

/** Docker-style patterns from session-host/Dockerfile.dockerignore: the one allowlist for the image context. */
export function sessionHostContextExcludes(): string[] {
  return readFileSync(join(repoRoot, 'session-host/Dockerfile.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

export interface SessionHostServiceProps {
  /** Egress addresses (context `sessionHostEgressAddresses`): a NAT gateway, an Elastic IP and a service of hosts each. */
  egressAddresses: number;
  /** Tasks per egress address (context `sessionHostTasksPerEgress`). */
  tasksPerEgress: number;
  /** Sessions an address should carry (context `sessionsPerEgressAddress`); the host's own default when absent. */
  sessionsPerEgress?: number;
}

/** One egress group's hosts: a service whose tasks all leave by that group's address. */
export interface SessionHostGroup {
  egressGroup: string;
  service: FargateService;
  /** The group's public address (the Elastic IP's Ref). */
  address: string;
}

/**
 * The long-running WhatsApp session hosts on Fargate, in private subnets (they only dial out:
 * WhatsApp, DynamoDB, SQS, S3). One service per egress group (session-host-network.ts), so every
 * task of a service leaves by that group's Elastic IP and knows it (EGRESS_GROUP, EGRESS_ADDRESS),
 * which it publishes for placement (session-host/src/placement.ts) to spread sessions over the
 * addresses. The services share one cluster, image, log group, security group and pair of roles:
 * only the task definition (its environment) and the service differ per group.
 */
export class SessionHostService extends Construct {
  readonly groups: SessionHostGroup[];
  readonly taskRole: Role;
  /** Every host container at once: a binding gives them all the same variable. */
  readonly container: EnvironmentTarget;

  constructor(scope: Construct, id: string, props: SessionHostServiceProps) {
    super(scope, id);
    const network = new SessionHostNetwork(this, 'Network', { egressAddresses: props.egressAddresses });
    const { vpc } = network;
    const cluster = new Cluster(this, 'Cluster', { vpc, containerInsightsV2: ContainerInsights.ENABLED });
    const tasks = new ServicePrincipal('ecs-tasks.amazonaws.com');
    this.taskRole = new Role(this, 'TaskRole', { assumedBy: tasks, description: 'Conversa session-host tasks' });
    const executionRole = new Role(this, 'ExecutionRole', { assumedBy: tasks, description: 'Conversa session-host image pull and logs' });
    acknowledge(
      executionRole,
      'IAM5[Resource::*]',
      'ecr:GetAuthorizationToken has no resource-level permissions; CDK scopes the image pull and log writes to their resources.',
    );
    // CDK only stages the context at synth; the image is built by `cdk deploy` (needs Docker there).
    const image = ContainerImage.fromAsset(repoRoot, {
      file: 'session-host/Dockerfile',
      exclude: sessionHostContextExcludes(),
      ignoreMode: IgnoreMode.DOCKER,
      platform: Platform.LINUX_ARM64,
    });
    const logGroup = retainedLogGroup(this, 'Logs');
    const securityGroup = new SecurityGroup(this, 'Tasks', { vpc, description: 'Conversa session-host tasks: outbound only' });
    const containers: ContainerDefinition[] = [];
    this.groups = network.egressGroups.map(({ name, subnet, address }, i) => {
      const taskDefinition = new FargateTaskDefinition(this, `Egress${i + 1}Task`, {
        cpu: SESSION_HOST_TASK.cpu,
        memoryLimitMiB: SESSION_HOST_TASK.memoryLimitMiB,
        runtimePlatform: { cpuArchitecture: SESSION_HOST_TASK.cpuArchitecture, operatingSystemFamily: OperatingSystemFamily.LINUX },
        taskRole: this.taskRole,
        executionRole,
      });
      containers.push(
        taskDefinition.addContainer('session-host', {
          image,
          environment: {
            SESSION_PROVIDER: 'baileys',
            EGRESS_GROUP: name,
            EGRESS_ADDRESS: address.ref,
            ...(props.sessionsPerEgress ? { SESSIONS_PER_EGRESS: String(props.sessionsPerEgress) } : {}),
          },
          logging: LogDrivers.awsLogs({ streamPrefix: `session-host-${name}`, logGroup }),
        }),
      );
      acknowledge(
        taskDefinition,
        'ECS2',
        'The variables are resource names, queue URLs and the egress address (no secrets); the session auth state lives in DynamoDB, never in the environment.',
      );
      const service = new FargateService(this, `Egress${i + 1}Service`, {
        cluster,
        taskDefinition,
        desiredCount: props.tasksPerEgress,
        // A replacement task starts before the old one stops; the session lease hands sessions over.
        minHealthyPercent: 100,
        maxHealthyPercent: 200,
        circuitBreaker: { enable: true, rollback: true },
        assignPublicIp: false,
        vpcSubnets: { subnets: [subnet] },
        securityGroups: [securityGroup],
      });
      // Tasks start once their way out exists (the subnet's route through the group's NAT).
      service.node.addDependency(subnet.internetConnectivityEstablished);
      return { egressGroup: name, service, address: address.ref };
    });
    this.container = {
      addEnvironment: (key, value) => {
        for (const container of containers) container.addEnvironment(key, value);
      },
    };
  }
}
