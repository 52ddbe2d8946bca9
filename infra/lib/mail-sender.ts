import { ArnFormat, Stack } from 'aws-cdk-lib';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { EnvironmentTarget } from './data-table.ts';

/**
 * Who the product's mails come from (password-reset codes, functions/src/adapters/ses-mail.ts): an SES
 * identity of the region, verified by the operator (its domain, or the address itself) and out of SES's
 * sandbox, which otherwise delivers only to verified recipients. Context `mailFrom`; unset, the web
 * domain's no-reply address, or a placeholder that SES refuses until it is set (README "Deploying").
 */
export class MailSender extends Construct {
  readonly from: string;
  readonly address: string;

  constructor(scope: Construct, id: string, props: { from: string }) {
    super(scope, id);
    this.from = props.from;
    this.address = mailAddressOf(props.from);
  }

  /** The sender in MAIL_FROM, and ses:SendEmail on its identities only (its domain's and its own address's). */
  bind(target: EnvironmentTarget, grantee: IGrantable): void {
    target.addEnvironment('MAIL_FROM', this.from);
    const stack = Stack.of(this);
    const identity = (name: string) =>
      stack.formatArn({ service: 'ses', resource: 'identity', resourceName: name, arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
    const domain = this.address.slice(this.address.lastIndexOf('@') + 1);
    Grant.addToPrincipal({ grantee, actions: ['ses:SendEmail'], resourceArns: [identity(domain), identity(this.address)] });
  }
}

/** The address of `Name <address>` or of a bare address; throws on anything else. */
export function mailAddressOf(from: string): string {
  const address = (/<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from).trim();
  if (!/^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$/.test(address)) throw new Error(`mailFrom "${from}" is not an e-mail address`);
  return address;
}

/** Without `mailFrom`: no-reply at the web domain, else a placeholder (`.invalid` is reserved: SES refuses it until set). */
export const defaultMailFrom = (domainName: string | undefined): string => `Conversa <no-reply@${domainName ?? 'conversa.invalid'}>`;
