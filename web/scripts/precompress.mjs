// Writes the compressed copies the server serves (x.js.gz and x.js.br beside x.js in web/dist),
// at the best levels, so that start-up need not make them. Only files the server sends as they
// are: a file holding a placeholder the server fills in from its configuration (site.json:
// the public origin, the operator's details, the tag manager) is compressed by the server.
// Formats already compressed are skipped (as internal/server/contenttype.go's compressible
// does), and a copy is kept only when it is smaller than the file.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(web, 'dist');
const site = JSON.parse(readFileSync(join(web, '../internal/site/site.json'), 'utf8'));
const placeholders = [site.originPlaceholder, site.tagManagerPlaceholder, ...Object.values(site.operatorPlaceholders)]
  .filter(Boolean)
  .map((p) => Buffer.from(p));
const compressed = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.woff', '.woff2', '.zip', '.gz', '.br', '.mp4', '.webm']);

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
// brotli's window no larger than the file needs, as the server's brotliBytes sets it.
const lgwin = (n) => Math.min(Math.max(Math.ceil(Math.log2(n + 1)), 10), 24);

const files = (dir) =>
  readdirSync(dir)
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));

const todo = files(dist).filter((f) => !compressed.has(extname(f).toLowerCase()));
let eligible = 0;
let written = 0;
let saved = 0;
// zlib's asynchronous calls run on libuv's thread pool: every core works.
await Promise.all(
  todo.map(async (file) => {
    const body = readFileSync(file);
    if (placeholders.some((p) => body.includes(p))) return;
    eligible++;
    const [gz, br] = await Promise.all([
      gzipAsync(body, { level: 9 }),
      brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_LGWIN]: lgwin(body.length),
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    ]);
    for (const [suffix, copy] of [['.gz', gz], ['.br', br]]) {
      if (copy.length >= body.length) continue;
      writeFileSync(file + suffix, copy);
      written++;
      saved += body.length - copy.length;
    }
  }),
);
console.log(`precompressed: ${written} copies of ${eligible} files (${(saved / 1024).toFixed(0)} KB saved)`);
