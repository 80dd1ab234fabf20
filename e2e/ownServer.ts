// A handy of a test's own (e2e/support/handy.mjs), on a free port with a throwaway database, for
// tests that configure it differently from the shared server or stop it (the offline tests take
// the network away by stopping it: the browser then meets a refused connection, as with no
// network); and a proxy in front of a server.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHandy } from './support/handy.mjs';

export interface OwnServer {
  /** Its origin, http://127.0.0.1:port. */
  url: string;
  /** Stops it (SIGTERM, then waits for it to exit); its data directory goes on close. */
  stop: () => Promise<void>;
  /** Stops it if it runs, and removes its data directory. */
  close: () => Promise<void>;
}

export const listen = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** Starts ./handy with args besides its address, public URL and data directory, and waits until it is ready. */
export async function startOwnServer(args: string[] = []): Promise<OwnServer> {
  const handy = await startHandy({ args, readyWithin: 30_000 });
  return { url: handy.url, stop: () => handy.stop(), close: () => handy.close() };
}

/** A proxy in front of a server, that can make it look redeployed or make requests fail. */
export interface Proxy {
  url: string;
  /**
   * From now on the server looks like a new build `id` is deployed: /builds/latest.json names it,
   * and /sw.js is the worker of that build (the same files under a new build id, so a new cache).
   */
  deploy: (id: string) => void;
  /** Requests whose path matches fail (the connection drops) while failing says so. */
  failWhile: (path: RegExp, failing: () => boolean) => void;
  close: () => Promise<void>;
}

export async function startProxy(target: string): Promise<Proxy> {
  let deployed: string | undefined;
  const failures: { path: RegExp; failing: () => boolean }[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (failures.some((f) => f.path.test(path) && f.failing())) {
      res.destroy();
      return;
    }
    const rewrite = deployed !== undefined && (path === '/sw.js' || path === '/builds/latest.json');
    const headers = { ...req.headers, ...(rewrite ? { 'accept-encoding': 'identity' } : {}) };
    const upstream = httpRequest(target + req.url, { method: req.method, headers }, (up) => {
      if (!rewrite) {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body =
          path === '/sw.js'
            ? text.replace(/"build":"[0-9a-f]+"/, `"build":"${deployed}"`)
            : JSON.stringify({ id: deployed, timestamp: Date.now() });
        const { etag: _etag, 'content-length': _length, ...rest } = up.headers;
        res.writeHead(up.statusCode ?? 502, { ...rest, 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    deploy: (id) => (deployed = id),
    failWhile: (path, failing) => failures.push({ path, failing }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
