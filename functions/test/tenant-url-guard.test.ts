/**
 * Issue 21: a tenant's outbound URL (webhook/n8n, Typebot, Dialogflow's token_uri) may not reach our
 * own network, whichever way the address is written. A server on 127.0.0.1 stands for an internal
 * service: it answers a secret to anything that reaches it. With the filter on (as in AWS), every
 * spelling of a loopback, private, link-local or otherwise non-public address is refused before a
 * byte is sent, the secret never comes back, and a name that resolves differently the second time
 * (DNS rebinding) still gets the connection the guard checked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postToWebhook } from '../src/adapters/bot-webhook.ts';
import { ProviderError } from '../src/adapters/provider-error.ts';
import { fetchTenantUrl, isNonPublicAddress } from '../src/adapters/tenant-url-guard.ts';

const SECRET = 'segredo-interno-4f9c2a';
const saved = process.env.ALLOW_PRIVATE_BOT_URLS;
let internal: Server;
let port: number;
let hits = 0;
let lastHost: string | undefined;

beforeAll(async () => {
  internal = createServer((req, res) => {
    hits++;
    lastHost = req.headers.host;
    req.resume();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ reply: SECRET, error_description: SECRET }));
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  port = (internal.address() as AddressInfo).port;
});
afterAll(() => {
  internal.closeAllConnections();
  internal.close();
  if (saved === undefined) delete process.env.ALLOW_PRIVATE_BOT_URLS;
  else process.env.ALLOW_PRIVATE_BOT_URLS = saved;
});
afterEach(() => {
  delete process.env.ALLOW_PRIVATE_BOT_URLS;
});

async function outcome(url: string): Promise<string> {
  try {
    const answer = await postToWebhook({ url, secret: 's', payload: { body: 'oi' }, timeoutMs: 1500 });
    return `answered ${JSON.stringify(answer)}`;
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return `${error.status} ${error.message}`;
  }
}

const REFUSED = 'invalid webhook: the URL points at a local or private network address';

describe("a tenant's webhook URL with the private-address filter on", () => {
  it('is refused for every spelling of a loopback, private or link-local address, and nothing reaches the internal service', async () => {
    delete process.env.ALLOW_PRIVATE_BOT_URLS;
    const urls = [
      // IPv4-mapped, as typed and as the URL parser rewrites it ([::ffff:7f00:1]).
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:7f00:1]:${port}/`,
      `http://[0:0:0:0:0:ffff:7f00:1]:${port}/`,
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
      `http://[::ffff:0:7f00:1]:${port}/`, // IPv4-translated (RFC 6145)
      `http://[::127.0.0.1]:${port}/`, // IPv4-compatible
      `http://[2002:7f00:1::]:${port}/`, // 6to4 of 127.0.0.1
      'http://[2002:a9fe:a9fe::1]/', // 6to4 of 169.254.169.254
      `http://[64:ff9b::7f00:1]:${port}/`, // NAT64 well-known prefix
      'http://[64:ff9b::a9fe:a9fe]/',
      `http://[64:ff9b:1::7f00:1]:${port}/`, // NAT64 local-use prefix
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', // Teredo whose client is 127.0.0.1
      // IPv4 numbers in the forms the URL parser turns into 127.0.0.1.
      `http://0x7f.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://127.1:${port}/`,
      // "This host", which connects to the loopback on Linux.
      `http://0.0.0.0:${port}/`,
      `http://[::]:${port}/`,
      `http://[::1]:${port}/`,
      // Plain ranges.
      `http://127.0.0.1:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      // A name that resolves to the loopback.
      `http://localhost:${port}/`,
    ];

    const outcomes = await Promise.all(urls.map(outcome));

    expect(Object.fromEntries(urls.map((url, i) => [url, outcomes[i]]))).toEqual(Object.fromEntries(urls.map((url) => [url, REFUSED])));
    expect(hits).toBe(0);
  });

  it('reaches the same service when the local stack allows private URLs (the switch is the only way in)', async () => {
    process.env.ALLOW_PRIVATE_BOT_URLS = '1';
    expect(await outcome(`http://[::ffff:7f00:1]:${port}/`)).toBe(`answered ${JSON.stringify({ replies: [SECRET], handBack: false })}`);
  });

  it('does not follow a redirect: the 3xx is the answer, and the place it names is not asked', async () => {
    // The switch lets the test reach its own redirecting server; a redirect from a public one is the same 3xx.
    process.env.ALLOW_PRIVATE_BOT_URLS = '1';
    const redirecting = createServer((req, res) => {
      req.resume();
      res.writeHead(302, { location: `http://127.0.0.1:${port}/` }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const before = hits;

    const result = await outcome(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/`);

    redirecting.close();
    expect(result).toBe('302 webhook: HTTP 302');
    expect(hits).toBe(before);
  });
});

describe('a name that resolves differently the second time (DNS rebinding)', () => {
  /** Answers `first` to the first question and `then` to every later one, counting the questions. */
  const rebinding = (first: string, then: string) => {
    const asked: string[] = [];
    const resolve = async (hostname: string) => {
      asked.push(hostname);
      return [asked.length === 1 ? first : then];
    };
    return { asked, resolve };
  };
  const text = (url: string, resolve: (hostname: string) => Promise<string[]>) =>
    fetchTenantUrl(new URL(url), { method: 'POST', body: 'oi', signal: AbortSignal.timeout(1500) }, (res) => res.text(), resolve);

  it('cannot move the connection to 127.0.0.1 after a public address passed the check', async () => {
    delete process.env.ALLOW_PRIVATE_BOT_URLS;
    const before = hits;
    const dns = rebinding('93.184.215.14', '127.0.0.1');

    const outcome = await text(`http://rebind.example:${port}/`, dns.resolve).then(
      (body) => `answered ${body}`,
      (error: Error) => `failed ${error.name}`,
    );

    // The connection went to the public address that was checked (unreachable from here), never to the internal service.
    expect(outcome).toMatch(/^failed /);
    expect(outcome).not.toContain(SECRET);
    expect(dns.asked).toEqual(['rebind.example']);
    expect(hits).toBe(before);
  });

  it('connects to the address that was checked, keeping the URL host in the Host header', async () => {
    // The local stack's switch lets the check pass 127.0.0.1; the second answer would be unreachable.
    process.env.ALLOW_PRIVATE_BOT_URLS = '1';
    const dns = rebinding('127.0.0.1', '192.0.2.1');

    const body = await text(`http://rebind.example:${port}/`, dns.resolve);

    expect(JSON.parse(body)).toMatchObject({ reply: SECRET });
    expect(dns.asked).toEqual(['rebind.example']);
    expect(lastHost).toBe(`rebind.example:${port}`);
  });
});

describe('isNonPublicAddress', () => {
  it('counts only globally routable unicast as public, unwrapping every IPv4-in-IPv6 form', () => {
    const nonPublic = [
      '0.0.0.0',
      '0.1.2.3',
      '10.1.2.3',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '192.0.0.8',
      '192.0.2.1',
      '192.168.0.10',
      '198.18.0.1',
      '198.51.100.1',
      '203.0.113.9',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::ffff:10.0.0.1',
      '::ffff:0:7f00:1',
      '::7f00:1',
      '::a9fe:a9fe',
      '2002:7f00:1::',
      '2002:a00:1::1',
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::808:808',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001:0:a00:1::1',
      '2600:1f18::5efe:7f00:1', // ISATAP interface id naming 127.0.0.1
      '2600:1f18::200:5efe:a9fe:a9fe',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
      '100::1',
      '2001:db8::1',
      '5f00::1',
      'not an address',
    ];
    const isPublic = [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '100.128.0.1',
      '2001:4860:4860::8888',
      '2606:4700:4700::1111',
      '::ffff:8.8.4.4',
      '2002:808:808::1',
      '64:ff9b::808:808',
    ];
    expect(nonPublic.filter((address) => !isNonPublicAddress(address))).toEqual([]);
    expect(isPublic.filter(isNonPublicAddress)).toEqual([]);
  });
});
