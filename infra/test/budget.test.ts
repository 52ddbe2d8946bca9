/**
 * CloudFormation refuses a template of more than 500 resources. The region's stack keeps to 250 today
 * and every template (the stack's, the routes' and the monitoring's nested ones) to 300 with the whole spec declared,
 * so a new area is a few resources, never a redesign. The figures are printed for the record.
 */
import { httpRoutes, routeKey } from '@conversa/functions/routes';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaEntries } from '../lib/bundling.ts';
import { impliedRoutes, SPEC_ROUTES, SPEC_ROUTES_SERVED, specLambdas, specRoutes } from './spec-routes.ts';
import { type Synthesized, synthesize, type TemplateJson, templatesIn } from './synth.ts';

/** Resources a template may hold; CloudFormation's hard limit is 500. */
const TEMPLATE_BUDGET = 300;
/**
 * The region's stack as the route table stands today. The monitoring's nested stack took the alarm
 * topic, every alarm (one per Lambda and DLQ) and the dashboard out of it: 268 -> 229 today, and
 * 278 -> 237 with the whole spec declared. The session-host's nested stack (VPC, egress addresses,
 * services: 8 resources per egress address, 38 with the default two) took 247 -> 214. 250 is the tripwire: the spec fits with 13 to spare, about
 * three more Lambdas (function, role, policy, log group each) beyond it before someone must look
 * again, while the hard guard stays TEMPLATE_BUDGET per template with every route of the spec.
 */
/**
 * 280 since the webhooks (issue 23 §2): their three Lambdas (routes, delivery consumer, retries consumer)
 * and four queues with their SSL policies are 23 resources of the 275 counted then, and the stack stood
 * at ~252 without them. The hard guard below (300 per template with the whole spec) still holds. The
 * next saving to look at: the queues and their policies (8 per declared queue) in a nested stack.
 * 290 since the table's stream (issue 24): its message-words consumer (function, role, policy, log
 * group), its mapping and its DLQ with the DLQ's SSL policy are 7 resources of the 282 counted then.
 */
const TODAY_BUDGET = 290;

/**
 * Parameters of the monitoring's nested stack (CloudFormation allows 200): about one per Lambda and
 * one per queue. 100 leaves the spec's Lambdas room to double before the design must change.
 */
const MONITORING_PARAMETERS = 100;

const resourceCounts = (synthesized: Synthesized): Record<string, number> =>
  Object.fromEntries(
    Object.entries(templatesIn(synthesized)).map(([file, json]: [string, TemplateJson]) => [file, Object.keys(json.Resources).length]),
  );

/** Resources of a template by type, most first: where the next saving is. */
const typeCounts = (json: TemplateJson): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const { Type } of Object.values(json.Resources)) counts[Type] = (counts[Type] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([, a], [, b]) => b - a));
};

describe('resource budget with the route table of today', () => {
  let synthesized: Synthesized;
  beforeAll(() => {
    synthesized = synthesize({ bundle: false });
  });

  it(`keeps the region's stack at ${TODAY_BUDGET} resources or fewer and every template under ${TEMPLATE_BUDGET}`, () => {
    // Prepare
    const counts = resourceCounts(synthesized);
    console.log(`resources today (${httpRoutes.length} routes, ${lambdaEntries().length} Lambdas):`, counts);
    console.log("the region's template by type:", typeCounts(templatesIn(synthesized)[synthesized.stack.templateFile]!));
    // Assess
    // The region's stack and its nested stacks: the HTTP routes', the monitoring's and the session-host's.
    expect(Object.keys(counts)).toHaveLength(4);
    expect(counts[synthesized.stack.templateFile]).toBeLessThanOrEqual(TODAY_BUDGET);
    for (const [file, count] of Object.entries(counts)) expect(count, file).toBeLessThanOrEqual(TEMPLATE_BUDGET);
  });
});

describe('resource budget with every route of the spec', () => {
  const routes = [...httpRoutes, ...specRoutes, ...impliedRoutes];
  const lambdas = [...lambdaEntries(), ...specLambdas];
  let synthesized: Synthesized;
  beforeAll(() => {
    synthesized = synthesize({ bundle: false, api: { routes, lambdas } });
  });

  it('declares the 54 routes of SPEC section 7 not yet in routes.ts, none of them already there', () => {
    const today = new Set(httpRoutes.map(routeKey));
    expect(specRoutes).toHaveLength(SPEC_ROUTES - SPEC_ROUTES_SERVED);
    expect([...specRoutes, ...impliedRoutes].filter((route) => today.has(routeKey(route)))).toEqual([]);
    expect(new Set(routes.map(routeKey)).size).toBe(routes.length);
  });

  it(`deploys all of them, and every template stays under ${TEMPLATE_BUDGET} resources`, () => {
    // Prepare
    const counts = resourceCounts(synthesized);
    const deployed = synthesized.routesTemplate.findResources('AWS::ApiGatewayV2::Route');
    console.log(`resources with the spec (${routes.length} routes, ${lambdas.length} Lambdas):`, counts);
    // Assess: the routes all reached the API, through the same construct
    expect(
      Object.values(deployed)
        .map((route) => route.Properties.RouteKey as string)
        .sort(),
    ).toEqual(routes.map(routeKey).sort());
    for (const [file, count] of Object.entries(counts)) expect(count, file).toBeLessThan(TEMPLATE_BUDGET);
  });

  it(`passes the monitoring stack at most ${MONITORING_PARAMETERS} of CloudFormation's 200 parameters`, () => {
    // Prepare: every function, queue, the service and the socket API it watches arrive as parameters
    const monitoring = templatesIn(synthesized)[synthesized.stack.monitoringStack.templateFile]!;
    const parameters = Object.keys(monitoring.Parameters ?? {}).length;
    console.log(`monitoring stack parameters with the spec (${lambdas.length} Lambdas): ${parameters}`);
    // Assess: one per Lambda at least (its name), and far from the limit
    expect(parameters).toBeGreaterThanOrEqual(lambdas.length);
    expect(parameters).toBeLessThanOrEqual(MONITORING_PARAMETERS);
  });
});
