/**
 * Environment read once at cold start. A missing required variable fails fast with its name.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

function optional(name: string): string | undefined {
  const value = process.env[name];
  return value === '' ? undefined : value;
}

export const env = {
  get tableName() {
    return required('TABLE_NAME');
  },
  /** Set only when talking to a stand-in (DynamoDB Local, cognito-local, s3rver, fauxqs). */
  get dynamoEndpoint() {
    return optional('DYNAMODB_ENDPOINT');
  },
  get region() {
    return process.env.AWS_REGION ?? 'us-east-1';
  },
  get userPoolId() {
    return required('USER_POOL_ID');
  },
  get userPoolClientId() {
    return required('USER_POOL_CLIENT_ID');
  },
  /** Issuer of the Cognito tokens; defaults to the AWS one for the pool. */
  get jwtIssuer() {
    return optional('JWT_ISSUER') ?? `https://cognito-idp.${this.region}.amazonaws.com/${this.userPoolId}`;
  },
  get cognitoEndpoint() {
    return optional('COGNITO_ENDPOINT');
  },
  get wsManagementUrl() {
    return required('WS_MANAGEMENT_URL');
  },
  get mediaBucket() {
    return required('MEDIA_BUCKET');
  },
  get s3Endpoint() {
    return optional('S3_ENDPOINT');
  },
  get sqsEndpoint() {
    return optional('SQS_ENDPOINT');
  },
  /** SES's endpoint locally (infra/local/mail-sink.ts); AWS's own otherwise. */
  get sesEndpoint() {
    return optional('SES_ENDPOINT');
  },
  /** The sender of the mails the product sends (password-reset codes), an SES verified identity: `Conversa <no-reply@example.com>`. */
  get mailFrom() {
    return required('MAIL_FROM');
  },
  queueUrl(name: string) {
    return required(`QUEUE_URL_${name.toUpperCase().replace(/-/g, '_')}`);
  },
  /**
   * `shared` once the operator released the shared conversation counter (storage/contacts/conversation-ids.ts,
   * context `conversationCounter`); `separate` otherwise.
   */
  get conversationCounter(): 'shared' | 'separate' {
    return optional('CONVERSATION_COUNTER') === 'shared' ? 'shared' : 'separate';
  },
  /** Allowed browser origin for the REST API; `*` when unset (local stack). */
  get corsOrigin() {
    return optional('CORS_ORIGIN') ?? '*';
  },
  /** The payment provider's API (Asaas): production by default, the sandbox or the local fake otherwise. */
  get asaasBaseUrl() {
    return optional('ASAAS_BASE_URL') ?? 'https://api.asaas.com/v3';
  },
  /** The access token Asaas sends with each webhook call (configured on both sides); unset refuses every call. */
  get asaasWebhookToken() {
    return optional('ASAAS_WEBHOOK_TOKEN');
  },
  /** An OpenAI-compatible API for the AI prompts (OpenAI itself unless set; the local fake in infra/local/bot-fakes). */
  get openAiBaseUrl() {
    return optional('OPENAI_BASE_URL') ?? 'https://api.openai.com/v1';
  },
  get openAiModel() {
    return optional('OPENAI_MODEL') ?? 'gpt-4o-mini';
  },
  /** Where audio is transcribed (POST <base>/audio/transcriptions); unset: the prompts do not transcribe audio. */
  get transcriptionBaseUrl() {
    return optional('TRANSCRIPTION_BASE_URL');
  },
  /** The local stack only: tenants' bot URLs may name 127.0.0.1 (where the fake providers listen). */
  get allowPrivateBotUrls() {
    return optional('ALLOW_PRIVATE_BOT_URLS') === '1';
  },
  /**
   * Webhook retries (domain/webhooks/backoff.ts): the first retry's wait and the window retries
   * run for, in seconds (30 and 86400 unless set); the local stack shortens them.
   */
  get webhookRetry() {
    return { base: optional('WEBHOOK_RETRY_BASE_SECONDS'), window: optional('WEBHOOK_RETRY_WINDOW_SECONDS') };
  },
  /** Dialogflow ES' REST API root (Google's unless set). */
  get dialogflowBaseUrl() {
    return optional('DIALOGFLOW_BASE_URL') ?? 'https://dialogflow.googleapis.com';
  },
  /**
   * How long the inbound pipeline lets a socket's events gather into one frame (realtime/outbox.ts);
   * 0 posts every event by itself. Default 20 ms.
   */
  get realtimeCoalesceMs() {
    const value = Number(optional('REALTIME_COALESCE_MS') ?? 20);
    return Number.isFinite(value) && value >= 0 ? Math.min(value, 100) : 20;
  },
  /** A tenant with more sockets open than this gets its frames through the fan-out queue (realtime/fanout.ts). Default 100. */
  get realtimeFanoutThreshold() {
    const value = Number(optional('REALTIME_FANOUT_THRESHOLD') ?? 100);
    return Number.isInteger(value) && value >= 0 ? value : 100;
  },
  get serverVersion() {
    return process.env.SERVER_VERSION ?? '6.0.0';
  },
};
