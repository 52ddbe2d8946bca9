/**
 * The web app locally: web/dist served as CloudFront serves it (SPA fallback to index.html), plus
 * GET /config.json with the endpoints of this stack, which the app reads at boot.
 */
import { execFile } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './lambda-runtime.ts';

export const webDir = join(repoRoot, 'web');
export const webDist = join(webDir, 'dist');

export interface WebConfig {
  apiUrl: string;
  wsUrl: string;
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  userPoolEndpoint: string;
}

export interface WebServer {
  url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.map': 'application/json',
};

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds web/dist when it is missing or older than its sources (keep it simple: mtime of web/src vs index.html). */
export async function ensureWebBuild(log: (line: string) => void): Promise<void> {
  const index = join(webDist, 'index.html');
  const src = join(webDir, 'src');
  if (!existsSync(join(webDir, 'index.html')) && !existsSync(src)) throw new Error('web/ has no app to build yet');
  const sourcesNewest = Math.max(
    existsSync(src) ? newestMtime(src) : 0,
    existsSync(join(webDir, 'index.html')) ? statSync(join(webDir, 'index.html')).mtimeMs : 0,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sourcesNewest) return;
  log('[web] building web/dist (npm run build -w web)...');
  const started = Date.now();
  // NODE_ENV decides React's build, and vitest sets it to 'test' for the process that starts the
  // stack: inherited, it shipped React's development build (2-3x the CPU a page) to the browser tests
  // and then to `npm start`, which serves the same web/dist.
  await promisify(execFile)('npm', ['run', 'build', '-w', 'web'], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  log(`[web] built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export async function startWebServer(opts: { port: number; config: WebConfig; log: (line: string) => void }): Promise<WebServer> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://local').pathname);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (path === '/config.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(opts.config));
      return;
    }
    const file = normalize(join(webDist, path));
    const inside = file === webDist || file.startsWith(webDist + sep);
    const isFile = inside && existsSync(file) && statSync(file).isFile();
    // Unknown paths are client-side routes (/tickets/42): the SPA decides, like CloudFront's 403/404 -> index.html.
    const served = isFile ? file : join(webDist, 'index.html');
    if (!existsSync(served)) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('web/dist is not built: run npm run build -w web');
      return;
    }
    const hashedAsset = isFile && path.startsWith('/assets/');
    res.writeHead(200, {
      'content-type': TYPES[extname(served)] ?? 'application/octet-stream',
      'cache-control': hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(served).pipe(res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
