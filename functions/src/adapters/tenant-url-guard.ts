/**
 * The one guard every outbound URL a tenant controls goes through (ARCHITECTURE, "Decisions"): today
 * the bots' Typebot and webhook/n8n URLs and a Dialogflow service account's token_uri, all reached
 * through providerFetch's `tenantUrl`, and the webhook endpoints (adapters/webhook-post.ts).
 *
 * - What is private is decided by ipaddr.js' special-purpose tables, not by string matching: only
 *   globally routable unicast is public, and every IPv6 form that carries an IPv4 address (mapped,
 *   translated, 6to4, NAT64, Teredo, an ISATAP interface id) is judged by that IPv4 address. The URL
 *   parser has already turned `0x7f.1`, `2130706433` and `[::ffff:127.0.0.1]` into plain numbers.
 * - The connection goes to an address that was checked: the name is resolved once, every address
 *   is checked, and the request's own connection is pinned to them (undici's connect lookup), so a
 *   name that answers a public address to the check and 127.0.0.1 to the connection (DNS
 *   rebinding) still reaches the checked one. The Host header and TLS name stay the URL's.
 * - Redirects are not followed: a 3xx is an answer, not a second URL nobody checked.
 *
 * The local stack, whose fakes listen on 127.0.0.1, lets private addresses through with
 * ALLOW_PRIVATE_BOT_URLS (env.allowPrivateBotUrls); the connection is pinned all the same.
 */
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { RequestInit, Response } from 'undici';
import { env } from '#commons/env';

/** Why a tenant URL was not fetched: it names a non-public address, or its name does not resolve. */
export class TenantUrlRefused extends Error {
  constructor(readonly reason: 'private' | 'unresolvable') {
    super(reason === 'private' ? 'the URL points at a local or private network address' : 'the host name does not resolve');
    this.name = 'TenantUrlRefused';
  }
}

/** A host name's addresses; tests inject one to play DNS rebinding. */
export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, order: 'verbatim' })).map((entry) => entry.address);

/**
 * Fetches a tenant's URL over a connection pinned to the addresses checked here, and hands the
 * answer to `read` (the connection is closed once `read` is done). Throws TenantUrlRefused before
 * anything is sent when the URL may not be reached.
 */
export async function fetchTenantUrl<T>(
  url: URL,
  init: RequestInit,
  read: (response: Response) => Promise<T>,
  resolve: Resolver = systemResolver,
): Promise<T> {
  const addresses = await checkedAddresses(url, resolve);
  const pinned = addresses.map((address) => ({ address, family: isIP(address) }));
  const [first] = pinned;
  // net.connect asks for every address when it may try both families (autoSelectFamily), one otherwise.
  const lookupChecked: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, pinned);
    else callback(null, first?.address ?? '', first?.family);
  };
  // undici (~540 KB minified) is loaded on the first tenant request, not at every cold start of the
  // Lambdas that import this (the bundles' 500 KB budget, README "Benchmarks").
  const { Agent, fetch } = await import('undici');
  const agent = new Agent({ connect: { lookup: lookupChecked } });
  try {
    return await read(await fetch(url, { ...init, redirect: 'manual', dispatcher: agent }));
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}

/**
 * Refuses (TenantUrlRefused) a URL the guard would not fetch, without fetching it: the webhooks'
 * registration checks an endpoint's URL when it is saved, and again at each delivery (fetchTenantUrl).
 */
export async function assertTenantUrl(url: URL, resolve: Resolver = systemResolver): Promise<void> {
  await checkedAddresses(url, resolve);
}

/** The addresses the URL's host stands for, all of them public (unless the local stack allows private ones). */
async function checkedAddresses(url: URL, resolve: Resolver): Promise<string[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new TenantUrlRefused('unresolvable');
    }
  }
  if (addresses.length === 0) throw new TenantUrlRefused('unresolvable');
  if (!env.allowPrivateBotUrls && addresses.some(isNonPublicAddress)) throw new TenantUrlRefused('private');
  return addresses;
}

export const isNonPublicAddress = (address: string): boolean => !isPublicAddress(address);

function isPublicAddress(address: string): boolean {
  if (!isIP(address)) return false;
  const ip = ipaddr.parse(address);
  return ip.kind() === 'ipv4' ? isPublicV4(ip as ipaddr.IPv4) : isPublicV6(ip as ipaddr.IPv6);
}

const isPublicV4 = (ip: ipaddr.IPv4): boolean => ip.range() === 'unicast';

const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** The IPv4 address in two 16-bit groups of an IPv6 address. */
const v4Of = (high: number, low: number): ipaddr.IPv4 => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

function isPublicV6(ip: ipaddr.IPv6): boolean {
  const [, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = ip.parts;
  switch (ip.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return isPublicV4(v4Of(g6, g7));
    case 'rfc6052':
      // 64:ff9b::a.b.c.d reaches a.b.c.d through a NAT64; 64:ff9b:1::/48 is local-use (RFC 8215), never global.
      return ip.match(NAT64_WELL_KNOWN) && isPublicV4(v4Of(g6, g7));
    case '6to4': // 2002:aabb:ccdd::/48 is routed to a.b.c.d
      return isPublicV4(v4Of(g1, g2));
    case 'teredo': // 2001:0:<server v4>:<flags>:<port>:<client v4 inverted>
      return isPublicV4(v4Of(g2, g3)) && isPublicV4(v4Of(~g6 & 0xffff, ~g7 & 0xffff));
    case 'unicast':
      break;
    default:
      return false;
  }
  // Outside 2000::/3 nothing is global unicast (this includes the deprecated IPv4-compatible ::a.b.c.d).
  if (!ip.match(GLOBAL_UNICAST)) return false;
  // An ISATAP interface id (RFC 5214: 0000:5efe or 0200:5efe, u/g bits aside) tunnels to the IPv4 address after it.
  if ((g4 & 0xfcff) === 0 && g5 === 0x5efe) return isPublicV4(v4Of(g6, g7));
  return true;
}
