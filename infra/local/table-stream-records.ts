/**
 * A stream record as Lambda hands it to a consumer. The DynamoDB Streams API (and so DynamoDB
 * Local) answers with binary values as bytes and the creation time as a date; Lambda's event
 * carries them as JSON: base64 strings and epoch seconds, with the mapping's region and stream ARN.
 */
import type { AttributeValue, _Record as StreamApiRecord } from '@aws-sdk/client-dynamodb-streams';

/** DynamoDB JSON as it appears in a Lambda event (aws-lambda's `AttributeValue`). */
export interface EventAttributeValue {
  B?: string;
  BOOL?: boolean;
  BS?: string[];
  L?: EventAttributeValue[];
  M?: Record<string, EventAttributeValue>;
  N?: string;
  NS?: string[];
  NULL?: boolean;
  S?: string;
  SS?: string[];
}

/** aws-lambda's `DynamoDBRecord`, as the mapping fills it. */
export interface StreamEventRecord {
  eventID: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  eventVersion: '1.1';
  eventSource: 'aws:dynamodb';
  awsRegion: string;
  eventSourceARN: string;
  dynamodb: {
    ApproximateCreationDateTime: number;
    Keys: Record<string, EventAttributeValue>;
    NewImage?: Record<string, EventAttributeValue>;
    OldImage?: Record<string, EventAttributeValue>;
    SequenceNumber: string;
    SizeBytes: number;
    StreamViewType: string;
  };
  /** A TTL expiry's removal: `{ type: 'Service', principalId: 'dynamodb.amazonaws.com' }`. */
  userIdentity?: { type?: string; principalId?: string };
}

export function streamEventRecord(record: StreamApiRecord, region: string, streamArn: string): StreamEventRecord {
  const data = record.dynamodb ?? {};
  const created = data.ApproximateCreationDateTime;
  return {
    eventID: record.eventID ?? '',
    eventName: record.eventName ?? 'MODIFY',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    eventSourceARN: streamArn,
    dynamodb: {
      // Lambda's events carry whole epoch seconds.
      ApproximateCreationDateTime: created ? Math.floor(created.getTime() / 1000) : Math.floor(Date.now() / 1000),
      Keys: eventImage(data.Keys) ?? {},
      ...(data.NewImage ? { NewImage: eventImage(data.NewImage) } : {}),
      ...(data.OldImage ? { OldImage: eventImage(data.OldImage) } : {}),
      SequenceNumber: data.SequenceNumber ?? '',
      SizeBytes: data.SizeBytes ?? 0,
      StreamViewType: data.StreamViewType ?? '',
    },
    ...(record.userIdentity ? { userIdentity: { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId } } : {}),
  };
}

function eventImage(image: Record<string, AttributeValue> | undefined): Record<string, EventAttributeValue> | undefined {
  return image && Object.fromEntries(Object.entries(image).map(([name, value]) => [name, eventAttribute(value)]));
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

function eventAttribute(value: AttributeValue): EventAttributeValue {
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.L !== undefined) return { L: value.L.map(eventAttribute) };
  if (value.M !== undefined) return { M: eventImage(value.M) };
  // S, N, SS, NS, BOOL and NULL are JSON already.
  return value as EventAttributeValue;
}
