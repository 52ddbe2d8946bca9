/**
 * The session-host's egress addresses (issue 15): context `sessionHostEgressAddresses` declares that
 * many NAT gateways with an Elastic IP each, a private subnet routed through each, and one service
 * whose tasks run in that subnet and know their group (EGRESS_GROUP, EGRESS_ADDRESS), so placement
 * can spread sessions over the addresses. The addresses are a stack output for allow-lists.
 */
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { stackPropsFromContext } from '../lib/context.ts';
import { MAX_EGRESS_ADDRESSES } from '../lib/session-host-network.ts';
import { resourcesOf, type Synthesized, synthesize, templatesIn } from './synth.ts';

type Json = Record<string, unknown>;
const props = (template: Template, type: string) =>
  resourcesOf(template, type).map(([id, r]) => [id, r.Properties ?? {}] as [string, Json]);
const env = (task: Json) =>
  Object.fromEntries(
    ((task.ContainerDefinitions as Json[])[0]!.Environment as { Name: string; Value: unknown }[]).map((e) => [e.Name, e.Value]),
  );

describe('three egress addresses from context', () => {
  let synthesized: Synthesized;
  let hosts: Template;
  beforeAll(() => {
    synthesized = synthesize({ bundle: false, context: { sessionHostEgressAddresses: '3', sessionsPerEgressAddress: '150' } });
    hosts = synthesized.sessionHostTemplate;
  });

  it('declares three NAT gateways, each with its own Elastic IP', () => {
    const nats = props(hosts, 'AWS::EC2::NatGateway');
    const eips = resourcesOf(hosts, 'AWS::EC2::EIP').map(([id]) => id);
    expect(nats).toHaveLength(3);
    expect(eips).toHaveLength(3);
    expect(nats.map(([, nat]) => (nat.AllocationId as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]).sort()).toEqual([...eips].sort());
  });

  it("runs one service per address, its tasks in a subnet routed through that address's NAT, knowing their group", () => {
    // Prepare: subnet -> NAT through its route table; task definition -> environment
    const routeTableOf = new Map(
      props(hosts, 'AWS::EC2::SubnetRouteTableAssociation').map(([, a]) => [JSON.stringify(a.SubnetId), JSON.stringify(a.RouteTableId)]),
    );
    const natOfRouteTable = new Map(
      props(hosts, 'AWS::EC2::Route')
        .filter(([, r]) => r.NatGatewayId)
        .map(([, r]) => [JSON.stringify(r.RouteTableId), (r.NatGatewayId as { Ref: string }).Ref]),
    );
    const eipOfNat = new Map(
      props(hosts, 'AWS::EC2::NatGateway').map(([id, nat]) => [id, (nat.AllocationId as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]]),
    );
    const tasks = new Map(props(hosts, 'AWS::ECS::TaskDefinition'));
    const services = props(hosts, 'AWS::ECS::Service');
    // Act: for each service, the NAT its subnet routes through and what its tasks are told
    const seen = services.map(([, service]) => {
      const network = (service.NetworkConfiguration as { AwsvpcConfiguration: { Subnets: unknown[]; AssignPublicIp: string } })
        .AwsvpcConfiguration;
      expect(network.Subnets).toHaveLength(1);
      expect(network.AssignPublicIp).toBe('DISABLED');
      const nat = natOfRouteTable.get(routeTableOf.get(JSON.stringify(network.Subnets[0]))!)!;
      const task = tasks.get((service.TaskDefinition as { Ref: string }).Ref)!;
      const vars = env(task);
      return {
        group: vars.EGRESS_GROUP,
        address: (vars.EGRESS_ADDRESS as { Ref: string }).Ref,
        eip: eipOfNat.get(nat),
        cap: vars.SESSIONS_PER_EGRESS,
      };
    });
    // Assess: three groups, three distinct NATs, and each task's address is its own NAT's Elastic IP
    expect(seen.map((s) => s.group).sort()).toEqual(['egress-1', 'egress-2', 'egress-3']);
    expect(new Set(seen.map((s) => s.eip)).size).toBe(3);
    for (const s of seen) expect(s.address).toBe(s.eip);
    for (const s of seen) expect(s.cap).toBe('150');
  });

  it('lists the Elastic IPs as a stack output, and stays well inside the template budget', () => {
    const outputs = synthesized.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    const joined = JSON.stringify(outputs.SessionHostEgressAddresses?.Value);
    expect(joined).toContain('Fn::Join');
    expect(joined.match(/Outputs\./g)).toHaveLength(3);
    const counts = Object.entries(templatesIn(synthesized)).map(([file, json]) => [file, Object.keys(json.Resources).length] as const);
    console.log('resources with three egress addresses:', Object.fromEntries(counts));
    for (const [file, count] of counts) expect(count, file).toBeLessThan(300);
  });
});

describe('egress addresses context', () => {
  const propsWith = (context: Record<string, unknown>) => stackPropsFromContext(new App({ context })).props.sessionHost;

  it("defaults to two addresses, one task each, and the host's own session cap", () => {
    expect(propsWith({})).toEqual({ egressAddresses: 2, tasksPerEgress: 1, sessionsPerEgress: undefined });
  });

  it('takes numbers from cdk.json or strings from -c, and refuses what is not a count in range', () => {
    expect(propsWith({ sessionHostEgressAddresses: 4, sessionHostTasksPerEgress: '2' })).toMatchObject({
      egressAddresses: 4,
      tasksPerEgress: 2,
    });
    for (const bad of ['0', '2.5', 'two', String(MAX_EGRESS_ADDRESSES + 1)])
      expect(() => propsWith({ sessionHostEgressAddresses: bad }), bad).toThrow(/sessionHostEgressAddresses/);
  });

  it(`declares at most ${MAX_EGRESS_ADDRESSES} addresses in a template of fewer than 300 resources`, () => {
    const { sessionHostTemplate } = synthesize({ bundle: false, context: { sessionHostEgressAddresses: String(MAX_EGRESS_ADDRESSES) } });
    sessionHostTemplate.resourceCountIs('AWS::EC2::EIP', MAX_EGRESS_ADDRESSES);
    expect(Object.keys(sessionHostTemplate.toJSON().Resources).length).toBeLessThan(300);
  });
});
