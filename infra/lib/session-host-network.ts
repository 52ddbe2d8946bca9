import { CfnEIP, CfnNatGateway, FlowLogDestination, IpAddresses, PrivateSubnet, SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import { Construct } from 'constructs';
import { retainedLogGroup } from './log-groups.ts';

/** The most egress addresses a region's stack declares (the private subnets' /20 blocks that fit above the public ones). */
export const MAX_EGRESS_ADDRESSES = 12;
const VPC_CIDR = '10.0.0.0/16';

/** One way out to the internet: a private subnet whose default route is its own NAT gateway and Elastic IP. */
export interface EgressGroup {
  /** What the hosts behind it publish as their EGRESS_GROUP (`egress-1`, `egress-2`, ...). */
  name: string;
  subnet: PrivateSubnet;
  /** The Elastic IP: its Ref is the public address WhatsApp sees for every session of this group. */
  address: CfnEIP;
}

/**
 * The session-host's network: a VPC over two AZs with a public subnet each (the NAT gateways live
 * there), and `egressAddresses` egress groups, each a private subnet routed through a NAT gateway
 * of its own with its own Elastic IP, spread over the AZs in turn. WhatsApp sees one address per
 * group instead of one for every session of the region, and an AZ's outage takes only its groups.
 *
 * Built by hand rather than with the VPC's `natGateways`: that gives one NAT per AZ at most, and an
 * environment-agnostic stack knows two AZs, so it could not declare a third address.
 */
export class SessionHostNetwork extends Construct {
  readonly vpc: Vpc;
  readonly egressGroups: EgressGroup[];

  constructor(scope: Construct, id: string, props: { egressAddresses: number }) {
    super(scope, id);
    const count = props.egressAddresses;
    if (!Number.isInteger(count) || count < 1 || count > MAX_EGRESS_ADDRESSES)
      throw new Error(`The session-host's egress addresses must be 1 to ${MAX_EGRESS_ADDRESSES}, not ${count}`);
    this.vpc = new Vpc(this, 'Vpc', {
      ipAddresses: IpAddresses.cidr(VPC_CIDR),
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'Public', subnetType: SubnetType.PUBLIC, cidrMask: 24 }],
      flowLogs: { all: { destination: FlowLogDestination.toCloudWatchLogs(retainedLogGroup(this, 'FlowLogs')) } },
    });
    const publicSubnets = this.vpc.publicSubnets;
    this.egressGroups = Array.from({ length: count }, (_, i) => {
      const name = `egress-${i + 1}`;
      const id = `Egress${i + 1}`;
      const nearby = publicSubnets[i % publicSubnets.length]!;
      const address = new CfnEIP(this, `${id}Address`, { domain: 'vpc' });
      const nat = new CfnNatGateway(this, `${id}Nat`, { subnetId: nearby.subnetId, allocationId: address.attrAllocationId });
      // A NAT gateway needs its public subnet's route to the internet gateway first.
      nat.node.addDependency(nearby.internetConnectivityEstablished);
      // /20 blocks from 10.0.64.0 up: clear of the public /24s that the VPC allocates from 10.0.0.0.
      const subnet = new PrivateSubnet(this, `${id}Subnet`, {
        vpcId: this.vpc.vpcId,
        availabilityZone: nearby.availabilityZone,
        cidrBlock: `10.0.${(i + 4) * 16}.0/20`,
        mapPublicIpOnLaunch: false,
      });
      subnet.addDefaultNatRoute(nat.ref);
      return { name, subnet, address };
    });
  }
}
