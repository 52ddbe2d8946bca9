/**
 * Synthesizes the real app (same context handling, same cdk-nag plugin as bin/app.ts) once per
 * test file. Synth throws if cdk-nag reports any unacknowledged finding, so every file that
 * synthesizes also proves the stack passes AwsSolutions.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { stackPropsFromContext } from '../lib/context.ts';
import { ConversaStack, type ConversaStackProps } from '../lib/conversa-stack.ts';

export const TEST_REGION = 'eu-west-1';

export interface Synthesized {
  app: App;
  assembly: CloudAssembly;
  stack: ConversaStack;
  template: Template;
  /** The HTTP API's routes, integrations and invoke permissions (a nested stack), references resolved. */
  routesTemplate: Template;
  /** The alarm topic, the alarms and the dashboard (a nested stack), references resolved. */
  monitoringTemplate: Template;
  /** The session-host's VPC, egress addresses and services (a nested stack), references resolved. */
  sessionHostTemplate: Template;
}

export interface SynthOptions {
  bundle?: boolean;
  region?: string;
  /** Further CDK context (`alarmEmail`, ...). */
  context?: Record<string, string>;
  /** A wider route table and Lambda set than the shared declarations (the resource budget test). */
  api?: ConversaStackProps['api'];
}

/**
 * Synths already made in this worker, by their options. The cdk project runs without isolation
 * (vitest.config.ts), so its files share a worker's modules: seven files asked for the same default
 * synth, ~12 s of CPU each on 2 cores, and now the first one in each worker makes it. The results
 * are read, never changed, by the tests.
 */
const made = new Map<string, Synthesized>();

/**
 * `bundle: false` skips esbuild for the Lambdas (CDK's `aws:cdk:bundling-stacks` context, as
 * `cdk synth --exclusively` does for other stacks): the template is the same but for the assets'
 * hashes, and the synth takes a few seconds instead of twenty. Files that check the template's
 * shape use it; resources.test.ts bundles for real.
 */
export function synthesize(opts: SynthOptions = {}): Synthesized {
  const key = JSON.stringify(opts);
  const known = made.get(key);
  if (known) return known;
  const synthesized = synthesizeNow(opts);
  made.set(key, synthesized);
  return synthesized;
}

function synthesizeNow(opts: SynthOptions): Synthesized {
  const bundling = opts.bundle === false ? { 'aws:cdk:bundling-stacks': [] } : {};
  const app = new App({ context: { region: opts.region ?? TEST_REGION, ...opts.context, ...bundling } });
  const { id, props } = stackPropsFromContext(app);
  const stack = new ConversaStack(app, id, { ...props, api: opts.api });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const assembly = app.synth();
  const parent = assembly.getStackByName(stack.stackName).template;
  const template = Template.fromJSON(parent);
  const routesTemplate = Template.fromJSON(nestedTemplateOf(parent, assembly, stack.httpApi.routeStack));
  const monitoringTemplate = Template.fromJSON(nestedTemplateOf(parent, assembly, stack.monitoringStack));
  const sessionHostTemplate = Template.fromJSON(nestedTemplateOf(parent, assembly, stack.sessionHostStack));
  return { app, assembly, stack, template, routesTemplate, monitoringTemplate, sessionHostTemplate };
}

/**
 * A nested stack's template with every `{Ref: <parameter>}` replaced by what the parent passes in, so
 * its references read as the parent's logical ids (`{"Fn::GetAtt": ["AuthFunction...", "Arn"]}`).
 */
export function nestedTemplateOf(parent: TemplateJson, assembly: CloudAssembly, nested: NestedStack): TemplateJson {
  const json = JSON.parse(readFileSync(join(assembly.directory, nested.templateFile), 'utf8')) as TemplateJson;
  const logicalId = Stack.of(nested.nestedStackResource!).getLogicalId(nested.nestedStackResource!);
  const passed = (parent.Resources[logicalId]?.Properties?.Parameters ?? {}) as Record<string, unknown>;
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') {
      const ref = (value as { Ref?: unknown }).Ref;
      if (typeof ref === 'string' && ref in passed) return passed[ref];
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolve(inner)]));
    }
    return value;
  };
  return { ...json, Resources: resolve(json.Resources) as TemplateJson['Resources'] };
}

/** Every template of the synthesized region by file name: the stack's and its nested stacks' (as written, unresolved). */
export function templatesIn({ assembly, stack }: Pick<Synthesized, 'assembly' | 'stack'>): Record<string, TemplateJson> {
  const files = [stack.templateFile, ...readdirSync(assembly.directory).filter((file) => file.endsWith('.nested.template.json'))];
  return Object.fromEntries(files.map((file) => [file, JSON.parse(readFileSync(join(assembly.directory, file), 'utf8')) as TemplateJson]));
}

export interface TemplateJson {
  Resources: Record<string, Resource>;
  Parameters?: Record<string, unknown>;
  [section: string]: unknown;
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
