import { type CfnResource, Stack, Token, Validations } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct, type IConstruct } from 'constructs';

/**
 * Acknowledges one cdk-nag AwsSolutions finding on a construct and everything under it. Kept next
 * to the code that causes the finding, so the reason is read where the decision is made.
 */
export function acknowledge(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions-${rule}`, reason });
}

/** How cdk-nag prints a resource's ARN in a finding: `<LogicalId.Arn>`. */
export function nagArnOf(resource: CfnResource): string {
  return `<${Stack.of(resource).getLogicalId(resource)}.Arn>`;
}

/** How cdk-nag prints a resource's Ref in a finding: `<LogicalId>`. */
export function nagRefOf(resource: CfnResource): string {
  return `<${Stack.of(resource).getLogicalId(resource)}>`;
}

/** How cdk-nag prints the stack's region: the literal when known, the pseudo parameter otherwise. */
export function nagRegionOf(scope: IConstruct): string {
  const { region } = Stack.of(scope);
  return Token.isUnresolved(region) ? '<AWS::Region>' : region;
}

/** The construct that owns a grantee's policy (a Role), where IAM findings are reported. */
export function policyOwnerOf(grantee: IGrantable): IConstruct {
  const principal = grantee.grantPrincipal;
  if (!Construct.isConstruct(principal)) throw new Error('Grants go to roles of this stack, which are constructs');
  return principal;
}
