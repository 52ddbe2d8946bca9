/**
 * CloudWatch's PutMetricData locally: there is no emulator of it in npm, and the session-host
 * publishes its metrics with the real SDK (session-host/src/metrics.ts), pointed here by
 * CLOUDWATCH_ENDPOINT. This answers the one operation as CloudWatch does over the protocol
 * @aws-sdk/client-cloudwatch 3.11xx speaks (AWS JSON 1.0: POST /, `X-Amz-Target:
 * GraniteServiceVersion20100801.PutMetricData`, a JSON body, gzipped by the SDK past 10 KB, timestamps
 * as epoch seconds), refuses what CloudWatch refuses for the mistakes a publisher can make (no
 * namespace, an `AWS/` one, no or too many points, a point without a name, with no or several kinds
 * of value, or with more than 150 values), and records every accepted point.
 *
 * Tests read the record from the main process (`received`) or, from a vitest worker, with
 * GET /_recorded?namespace=&metricName= (JSON), which is no AWS operation.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { StandInError as ClientError, readCappedBody, startStandIn } from './stand-in-server.ts';

export interface RecordedDatum {
  namespace: string;
  metricName: string;
  unit?: string;
  /** Epoch ms of the point (its Timestamp, else when it arrived). */
  timestamp: number;
  value?: number;
  values?: number[];
  statisticValues?: { SampleCount: number; Sum: number; Minimum: number; Maximum: number };
  dimensions?: { Name: string; Value: string }[];
  receivedAt: number;
}

export interface LocalCloudWatch {
  endpoint: string;
  readonly received: readonly RecordedDatum[];
  stop(): Promise<void>;
}

const TARGET_PREFIX = 'GraniteServiceVersion20100801.';
const MAX_POINTS = 1000;
/** A point's Values array: CloudWatch takes up to 150 distinct values a point. */
const MAX_VALUES = 150;
const MAX_BODY_BYTES = 1024 * 1024;

export async function startCloudWatch(opts: { port: number }): Promise<LocalCloudWatch> {
  const received: RecordedDatum[] = [];
  const server = await startStandIn({
    port: opts.port,
    handle: (req, res) => handle(req, res, received),
    answerError: awsError,
    internalCode: 'InternalServiceFault',
  });
  return { endpoint: server.endpoint, received, stop: server.stop };
}

async function handle(req: IncomingMessage, res: ServerResponse, received: RecordedDatum[]): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'GET' && url.pathname === '/_recorded') {
    const namespace = url.searchParams.get('namespace');
    const metricName = url.searchParams.get('metricName');
    const matching = received.filter((d) => (!namespace || d.namespace === namespace) && (!metricName || d.metricName === metricName));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(matching));
    return;
  }
  const target = String(req.headers['x-amz-target'] ?? '');
  if (req.method !== 'POST' || !target.startsWith(TARGET_PREFIX)) {
    throw new ClientError('UnknownOperationException', `not a CloudWatch request: ${req.method} ${url.pathname} ${target}`);
  }
  const operation = target.slice(TARGET_PREFIX.length);
  if (operation !== 'PutMetricData') throw new ClientError('UnknownOperationException', `${operation} is not played locally`);
  let body = await readCappedBody(
    req,
    MAX_BODY_BYTES,
    () => new ClientError('RequestEntityTooLarge', 'Request size exceeded 1048576 bytes', 413),
  );
  if (String(req.headers['content-encoding'] ?? '').includes('gzip')) body = gunzipSync(body);
  const input = JSON.parse(body.toString('utf8') || '{}') as { Namespace?: unknown; MetricData?: unknown };
  received.push(...pointsOf(input, Date.now()));
  res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}');
}

/** Validates a PutMetricData input as CloudWatch does and returns its points; nothing is kept from a refused request. */
function pointsOf(input: { Namespace?: unknown; MetricData?: unknown }, receivedAt: number): RecordedDatum[] {
  const namespace = input.Namespace;
  if (typeof namespace !== 'string' || namespace === '') throw new ClientError('MissingParameter', 'The parameter Namespace is required.');
  if (namespace.startsWith('AWS/')) throw new ClientError('InvalidParameterValue', 'The value AWS/ for parameter Namespace is invalid.');
  const data = input.MetricData;
  if (!Array.isArray(data) || data.length === 0) throw new ClientError('MissingParameter', 'The parameter MetricData is required.');
  if (data.length > MAX_POINTS) {
    throw new ClientError('InvalidParameterValue', `The collection MetricData must not have a size greater than ${MAX_POINTS}.`);
  }
  return data.map((raw: Record<string, unknown>, i) => {
    const at = `MetricData.member.${i + 1}`;
    if (typeof raw.MetricName !== 'string' || raw.MetricName === '') {
      throw new ClientError('MissingParameter', `The parameter ${at}.MetricName is required.`);
    }
    const kinds = ['Value', 'Values', 'StatisticValues'].filter((k) => raw[k] !== undefined);
    if (kinds.length !== 1) {
      throw new ClientError('InvalidParameterCombination', `${at} must have exactly one of Value, Values or StatisticValues.`);
    }
    if (Array.isArray(raw.Values) && raw.Values.length > MAX_VALUES) {
      throw new ClientError('InvalidParameterValue', `The collection ${at}.Values must not have a size greater than ${MAX_VALUES}.`);
    }
    const stats = raw.StatisticValues as RecordedDatum['statisticValues'];
    if (stats && !(stats.SampleCount > 0 && stats.Minimum <= stats.Maximum)) {
      throw new ClientError('InvalidParameterValue', `${at}.StatisticValues is not a valid statistic set.`);
    }
    return {
      namespace,
      metricName: raw.MetricName,
      unit: typeof raw.Unit === 'string' ? raw.Unit : undefined,
      timestamp: typeof raw.Timestamp === 'number' ? Math.round(raw.Timestamp * 1000) : receivedAt,
      value: typeof raw.Value === 'number' ? raw.Value : undefined,
      values: Array.isArray(raw.Values) ? (raw.Values as number[]) : undefined,
      statisticValues: stats,
      dimensions: Array.isArray(raw.Dimensions) ? (raw.Dimensions as RecordedDatum['dimensions']) : undefined,
      receivedAt,
    };
  });
}

/** An error as the SDK's JSON 1.0 protocol reads it, with the query-compatible code CloudWatch adds. */
function awsError(res: ServerResponse, status: number, code: string, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-query-error': `${code};Sender` })
    .end(JSON.stringify({ __type: `com.amazonaws.cloudwatch#${code}`, message }));
}
