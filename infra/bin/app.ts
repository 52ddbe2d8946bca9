/**
 * The CDK app: one Conversa stack per region, chosen by context (`cdk deploy -c region=eu-west-1`).
 * No account is set: the stack stays environment-agnostic, so synth needs no credentials or lookups.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { stackPropsFromContext } from '../lib/context.ts';
import { ConversaStack } from '../lib/conversa-stack.ts';

const app = new App();
const { id, props } = stackPropsFromContext(app);
new ConversaStack(app, id, props);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
app.synth();
