import { type CfnResource, Names, Stack, Token, Validations } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct, type IConstruct } from 'constructs';

/**
 * Acknowledges one cdk-nag AwsSolutions finding on a construct and everything under it. Kept next
 * to the code that causes the finding, so the reason is read where the decision is made.
 */
export function acknowledge(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions-${rule}`, reason });
}

/**
 * How cdk-nag prints a resource's ARN in a finding on `seenFrom` (the policy's owner): `<LogicalId.Arn>`
 * in the resource's own stack, `<referenceto<uniqueId>Arn>` in a nested stack, where the ARN arrives
 * as the parameter CDK names that way.
 */
export function nagArnOf(resource: CfnResource, seenFrom: IConstruct = resource): string {
  return crossesStacks(resource, seenFrom)
    ? `<referenceto${Names.nodeUniqueId(resource.node)}Arn>`
    : `<${Stack.of(resource).getLogicalId(resource)}.Arn>`;
}

/** How cdk-nag prints a resource's Ref in a finding on `seenFrom`: `<LogicalId>`, or the nested stack's parameter. */
export function nagRefOf(resource: CfnResource, seenFrom: IConstruct = resource): string {
  return crossesStacks(resource, seenFrom)
    ? `<referenceto${Names.nodeUniqueId(resource.node)}Ref>`
    : `<${Stack.of(resource).getLogicalId(resource)}>`;
}

const crossesStacks = (resource: IConstruct, seenFrom: IConstruct): boolean => Stack.of(resource) !== Stack.of(seenFrom);

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
