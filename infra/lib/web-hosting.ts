import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HttpVersion,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Bucket, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { privateBucketDefaults } from './buckets.ts';
import { retainedLogGroup } from './log-groups.ts';
import { acknowledge, nagArnOf, nagRegionOf } from './nag.ts';
import { hasWebBuild, webDist } from './paths.ts';

/** What the web app fetches at start (`/config.json`) to find its backend: one build serves every region. */
export interface WebConfig {
  apiUrl: string;
  wsUrl: string;
  region: string;
  userPoolId: string;
  userPoolClientId: string;
}

export interface WebHostingProps {
  logs: Bucket;
  /** Optional custom domain; its ACM certificate must live in us-east-1 (a CloudFront rule). */
  domain?: { name: string; certificateArn: string };
}

/** The React build on a private bucket behind CloudFront (origin access control). */
export class WebHosting extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** https://<domain>: the only origin the API, the media bucket and the CORS rules accept. */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: WebHostingProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      ...privateBucketDefaults,
      serverAccessLogsBucket: props.logs,
      serverAccessLogsPrefix: 'web/',
      // Rebuilt from source on every deploy: nothing here is worth keeping.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: false,
    });
    const origin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    const spaFallback = (httpStatus: number) => ({
      httpStatus,
      responseHttpStatus: 200,
      responsePagePath: '/index.html',
      ttl: Duration.seconds(0),
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Conversa web app',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
        compress: true,
      },
      additionalBehaviors: {
        // Rewritten on every deploy; a cached copy would point browsers at a stale backend.
        '/config.json': { origin, viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY, cachePolicy: CachePolicy.CACHING_DISABLED },
      },
      // Client-side routes (/tickets/42) are not objects: S3 answers 403 through OAC, 404 otherwise.
      errorResponses: [spaFallback(403), spaFallback(404)],
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(props.domain
        ? {
            // Only a custom certificate can carry a TLS floor; the default one is fixed by CloudFront.
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
            domainNames: [props.domain.name],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
          }
        : {}),
      enableLogging: true,
      logBucket: props.logs,
      logFilePrefix: 'cdn/',
    });
    if (!props.domain) {
      acknowledge(
        this.distribution,
        'CFR4',
        'Without a custom domain CloudFront serves the default *.cloudfront.net certificate, whose TLS floor it fixes itself; pass -c domainName and -c certificateArn to get TLSv1.2_2021.',
      );
    }
    acknowledge(this.distribution, 'CFR1', 'The inbox serves companies wherever their agents are; no country is excluded by the product.');
    acknowledge(
      this.distribution,
      'CFR2',
      'The distribution serves only the static build and config.json (no forms, no API); the API has its own throttling.',
    );
    this.origin = `https://${props.domain?.name ?? this.distribution.distributionDomainName}`;
  }

  /**
   * Uploads `config.json`, and the web build when `web/dist` exists at synth time (tests and fresh
   * clones synth without building the web app).
   */
  deploy(config: WebConfig): BucketDeployment {
    const withBuild = hasWebBuild();
    const sources = [Source.jsonData('config.json', config)];
    if (withBuild) sources.unshift(Source.asset(webDist));
    const deployment = new BucketDeployment(this, 'Deployment', {
      sources,
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      // Without a build, pruning would delete the site that is already there.
      prune: withBuild,
      memoryLimit: 512,
      logGroup: retainedLogGroup(this, 'DeploymentLogs'),
    });
    this.acknowledgeDeploymentHandler();
    return deployment;
  }

  /** The deployment's Lambda is CDK's own singleton at stack level, outside this construct's tree. */
  private acknowledgeDeploymentHandler(): void {
    const stack = Stack.of(this);
    const handler = stack.node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (!handler) throw new Error('BucketDeployment handler not found: CDK changed its construct id');
    const why = 'CDK-owned BucketDeployment handler: ';
    acknowledge(handler, 'L1', `${why}CDK pins its runtime and upgrades it with aws-cdk-lib.`);
    acknowledge(
      handler,
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      `${why}CDK attaches the basic execution policy to its role; it only writes its own logs.`,
    );
    const copyReason = `${why}copies the build from the CDK asset bucket into the web bucket, under keys only known at deploy time.`;
    for (const action of ['Abort*', 'DeleteObject*', 'GetBucket*', 'GetObject*', 'List*'])
      acknowledge(handler, `IAM5[Action::s3:${action}]`, copyReason);
    acknowledge(handler, `IAM5[Resource::${nagArnOf(this.bucket.node.defaultChild as CfnBucket)}/*]`, copyReason);
    acknowledge(
      handler,
      `IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-${nagRegionOf(this)}/*]`,
      copyReason,
    );
    acknowledge(handler, 'IAM5[Resource::*]', `${why}cloudfront:CreateInvalidation has no resource-level permission in CDK's policy.`);
  }
}
