/**
 * The API describes itself (issue 23 §1): the local stack answers GET /api/openapi.json without a
 * token, with the OpenAPI 3.1 document of every route the gateway serves.
 */
import { httpRoutes } from '@conversa/functions/routes';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Api, createApi } from '../support/api.ts';

let api: Api;

beforeAll(() => {
  api = createApi();
});

interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { tags: string[]; security: unknown[] }>>;
}

describe('GET /api/openapi.json', () => {
  it('answers 200 JSON without a token: an OpenAPI 3.1 document of every route, at the server version', async () => {
    const res = await api.call<OpenApiDocument>('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body.openapi).toMatch(/^3\.1\./);
    expect(res.body.info.version).toBe(inject('env').SERVER_VERSION);
    const operations = Object.values(res.body.paths).flatMap((item) => Object.keys(item));
    expect(operations).toHaveLength(httpRoutes.length);
    expect(res.body.paths['/api/messages/send']?.post?.tags).toEqual(['external-api']);
    expect(res.body.paths['/api/openapi.json']?.get?.security).toEqual([]);
  });
});
