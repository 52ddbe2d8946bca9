/** Region selection and the optional custom domain, read from CDK context; no full synth needed. */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROVISIONED, DEFAULT_REGION, stackPropsFromContext } from '../lib/context.ts';
import { WebHosting } from '../lib/web-hosting.ts';

describe('stack context', () => {
  it('names the stack after the region and defaults to us-east-1, without an account', () => {
    const fallback = stackPropsFromContext(new App());
    expect(fallback.id).toBe(`Conversa-${DEFAULT_REGION}`);
    const chosen = stackPropsFromContext(new App({ context: { region: 'eu-west-1' } }));
    expect(chosen.id).toBe('Conversa-eu-west-1');
    expect(chosen.props.env).toEqual({ region: 'eu-west-1' });
  });

  it('refuses a region that is not one, and a domain without its certificate', () => {
    expect(() => stackPropsFromContext(new App({ context: { region: 'eu-west' } }))).toThrow(/not an AWS region/);
    expect(() => stackPropsFromContext(new App({ context: { domainName: 'inbox.example.com' } }))).toThrow(/go together/);
  });

  it('passes `alarmEmail` on to the stack when it is an address, and nothing when absent', () => {
    expect(stackPropsFromContext(new App({ context: { alarmEmail: 'ops@example.com' } })).props.alarmEmail).toBe('ops@example.com');
    expect(stackPropsFromContext(new App()).props.alarmEmail).toBeUndefined();
    expect(() => stackPropsFromContext(new App({ context: { alarmEmail: 'ops' } }))).toThrow(/not an e-mail address/);
  });

  it("passes the bots' provider settings on (issue 13), and refuses a provider URL that is not http(s)", () => {
    const bots = stackPropsFromContext(
      new App({ context: { openAiModel: 'gpt-4.1-mini', dialogflowBaseUrl: 'https://dialogflow.example' } }),
    ).props.bots;
    expect(bots).toEqual({ openAiModel: 'gpt-4.1-mini', dialogflowBaseUrl: 'https://dialogflow.example' });
    expect(() => stackPropsFromContext(new App({ context: { dialogflowBaseUrl: 'dialogflow.googleapis.com' } }))).toThrow(
      /dialogflowBaseUrl .* is not an http\(s\) URL/,
    );
  });
});

describe('table capacity (context tableCapacity)', () => {
  const capacityOf = (context: Record<string, string>) => stackPropsFromContext(new App({ context })).props.tableCapacity;

  it('is on demand unless provisioned is chosen, which takes the defaults or the ranges given', () => {
    expect(capacityOf({})).toEqual({ mode: 'on-demand' });
    expect(capacityOf({ tableCapacity: 'on-demand' })).toEqual({ mode: 'on-demand' });
    expect(capacityOf({ tableCapacity: 'provisioned' })).toEqual(DEFAULT_PROVISIONED);
    expect(
      capacityOf({ tableCapacity: 'provisioned', tableWriteCapacity: '1-40000', tableReadCapacity: '20-20', tableTargetUtilization: '90' }),
    ).toEqual({ mode: 'provisioned', writes: { min: 1, max: 40000 }, reads: { min: 20, max: 20 }, targetUtilizationPercent: 90 });
  });

  it.each([
    [{ tableCapacity: 'reserved' }, /neither on-demand nor provisioned/],
    [{ tableWriteCapacity: '5-100' }, /tableWriteCapacity applies to tableCapacity=provisioned only/],
    [{ tableCapacity: 'on-demand', tableTargetUtilization: '70' }, /provisioned only/],
    [{ tableCapacity: 'provisioned', tableWriteCapacity: '100' }, /tableWriteCapacity "100" is not <min>-<max>/],
    [{ tableCapacity: 'provisioned', tableWriteCapacity: '0-100' }, /not <min>-<max>/],
    [{ tableCapacity: 'provisioned', tableReadCapacity: '200-100' }, /tableReadCapacity "200-100"/],
    [{ tableCapacity: 'provisioned', tableReadCapacity: '5-40001' }, /max <= 40000/],
    [{ tableCapacity: 'provisioned', tableWriteCapacity: '-5-10' }, /not <min>-<max>/],
    [{ tableCapacity: 'provisioned', tableTargetUtilization: '95' }, /from 20 to 90/],
    [{ tableCapacity: 'provisioned', tableTargetUtilization: '19' }, /from 20 to 90/],
    [{ tableCapacity: 'provisioned', tableTargetUtilization: '70.5' }, /from 20 to 90/],
    [{ tableCapacity: 'provisioned', tableTargetUtilization: 'high' }, /from 20 to 90/],
  ])('refuses %o', (context, message) => {
    expect(() => capacityOf(context)).toThrow(message);
  });
});

describe('the shared conversation counter (context conversationCounter)', () => {
  const counterOf = (context: Record<string, string>) => stackPropsFromContext(new App({ context })).props.conversationCounter;

  it('is separate unless shared is chosen, and refuses anything else', () => {
    expect(counterOf({})).toBe('separate');
    expect(counterOf({ conversationCounter: 'shared' })).toBe('shared');
    expect(() => counterOf({ conversationCounter: 'merged' })).toThrow(/neither separate nor shared/);
  });
});

describe('web hosting with a custom domain', () => {
  it('serves the domain with its certificate and a TLS 1.2 floor', () => {
    // Prepare
    const stack = new Stack(new App(), 'Web', { env: { region: 'eu-west-1' } });
    const logs = new Bucket(stack, 'Logs');
    const certificateArn = 'arn:aws:acm:us-east-1:111111111111:certificate/abc';
    // Act
    const web = new WebHosting(stack, 'Web', { logs, domain: { name: 'inbox.example.com', certificateArn } });
    // Assess
    expect(web.origin).toBe('https://inbox.example.com');
    Template.fromStack(stack).hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: {
        Aliases: ['inbox.example.com'],
        ViewerCertificate: { AcmCertificateArn: certificateArn, MinimumProtocolVersion: 'TLSv1.2_2021' },
      },
    });
  });
});
