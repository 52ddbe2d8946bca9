import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { EnvironmentTarget } from './data-table.ts';
import { acknowledge, nagArnOf, policyOwnerOf } from './nag.ts';

/** Settings every bucket of the stack shares: private, TLS only, encrypted at rest. */
export const privateBucketDefaults = {
  blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
  enforceSSL: true,
  encryption: BucketEncryption.S3_MANAGED,
} as const;

/** Server access logs of the media and web buckets and CloudFront's standard logs. */
export class LogsBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      ...privateBucketDefaults,
      // CloudFront standard logging writes with an ACL, so the bucket must keep ACLs enabled.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.bucket, 'S1', 'This is the access-log destination itself; logging it into itself would loop.');
  }
}

export interface MediaBucketProps {
  logs: Bucket;
  /** The web app's origin: browsers PUT uploads straight to S3 with presigned URLs. */
  webOrigin: string;
}

/** Message media and uploads: private, reached only through presigned URLs. */
export class MediaBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: MediaBucketProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      ...privateBucketDefaults,
      serverAccessLogsBucket: props.logs,
      serverAccessLogsPrefix: 'media/',
      cors: [
        {
          allowedOrigins: [props.webOrigin],
          allowedMethods: [HttpMethods.PUT, HttpMethods.GET, HttpMethods.HEAD],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3000,
        },
      ],
      // Customers' media: kept when the stack goes.
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  bind(target: EnvironmentTarget): void {
    target.addEnvironment('MEDIA_BUCKET', this.bucket.bucketName);
  }

  /** Presigned GETs of existing objects (the private media route): no writes, no deletes. */
  grantRead(grantee: IGrantable): void {
    this.bucket.grantRead(grantee);
    const principal = policyOwnerOf(grantee);
    const reason = 'Media object keys are made at run time (tenant/ticket/message); the grant is S3 object read on this one bucket.';
    acknowledge(principal, `IAM5[Resource::${nagArnOf(this.bucket.node.defaultChild as CfnBucket, principal)}/*]`, reason);
    for (const action of ['GetBucket*', 'GetObject*', 'List*']) acknowledge(principal, `IAM5[Action::s3:${action}]`, reason);
  }

  grantReadWrite(grantee: IGrantable): void {
    this.bucket.grantReadWrite(grantee);
    const principal = policyOwnerOf(grantee);
    const reason =
      'Media object keys are made at run time (tenant/ticket/message); the grant is the S3 object read/write set on this one bucket.';
    acknowledge(principal, `IAM5[Resource::${nagArnOf(this.bucket.node.defaultChild as CfnBucket, principal)}/*]`, reason);
    for (const action of ['Abort*', 'DeleteObject*', 'GetBucket*', 'GetObject*', 'List*'])
      acknowledge(principal, `IAM5[Action::s3:${action}]`, reason);
  }
}
