/** Region selection and the optional custom domain, read from CDK context; no full synth needed. */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REGION, stackPropsFromContext } from '../lib/context.ts';
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
