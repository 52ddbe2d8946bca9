/**
 * Synthesizes the real app (same context handling, same cdk-nag plugin as bin/app.ts) once per
 * test file. Synth throws if cdk-nag reports any unacknowledged finding, so every file that
 * synthesizes also proves the stack passes AwsSolutions.
 */

import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { stackPropsFromContext } from '../lib/context.ts';
import { ConversaStack } from '../lib/conversa-stack.ts';

export const TEST_REGION = 'eu-west-1';

export interface Synthesized {
  app: App;
  assembly: CloudAssembly;
  stack: ConversaStack;
  template: Template;
}

/**
 * `bundle: false` skips esbuild for the Lambdas (CDK's `aws:cdk:bundling-stacks` context, as
 * `cdk synth --exclusively` does for other stacks): the template is the same but for the assets'
 * hashes, and the synth takes a few seconds instead of twenty. Files that check the template's
 * shape use it; resources.test.ts bundles for real.
 */
export function synthesize(opts: { bundle?: boolean } = {}): Synthesized {
  const bundling = opts.bundle === false ? { 'aws:cdk:bundling-stacks': [] } : {};
  const app = new App({ context: { region: TEST_REGION, ...bundling } });
  const { id, props } = stackPropsFromContext(app);
  const stack = new ConversaStack(app, id, props);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const assembly = app.synth();
  const template = Template.fromJSON(assembly.getStackByName(stack.stackName).template);
  return { app, assembly, stack, template };
}

type Resource = { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string; Metadata?: Record<string, unknown> };

/** Resources of one type as [logicalId, resource] pairs. */
export function resourcesOf(template: Template, type: string): [string, Resource][] {
  return Object.entries(template.findResources(type) as Record<string, Resource>);
}

/** Logical id of the one resource of `type` whose id starts with `prefix` (construct path flattened). */
export function logicalIdOf(template: Template, type: string, prefix: string): string {
  const ids = resourcesOf(template, type)
    .map(([id]) => id)
    .filter((id) => id.startsWith(prefix));
  if (ids.length !== 1) throw new Error(`Expected one ${type} starting with ${prefix}, found ${ids.join(', ') || 'none'}`);
  return ids[0]!;
}
