// Images shared to the installed app (Web Share Target) or opened with it (File Handling) land
// in the flipper, never on the server. A share is a POST the service worker answers itself: it
// keeps the files in a cache of their own and sends the app to the flipper, which takes them.

/** The cache the worker keeps shared images in until the flipper takes them. */
export const sharedCache = 'shared-images';
/** The query the flipper is opened with when shared images wait for it. */
export const sharedQuery = 'shared';
const nameHeader = 'x-file-name';

/** In the worker: keeps the POSTed images and answers with a redirect to the flipper. */
export async function keepShared(request: Request, flipperPath: string): Promise<Response> {
  const form = await request.formData();
  const files = form.getAll('images').filter((f): f is File => f instanceof File);
  const cache = await caches.open(sharedCache);
  const stamp = Date.now();
  await Promise.all(
    files.map((f, i) =>
      cache.put(`/__shared/${stamp}-${i}`, new Response(f, { headers: { 'content-type': f.type, [nameHeader]: encodeURIComponent(f.name) } })),
    ),
  );
  return Response.redirect(`${flipperPath}?${sharedQuery}`, 303);
}

/** In the page: the images shared to the app, in the order shared, removed from the cache. */
export async function takeShared(): Promise<File[]> {
  if (!('caches' in window)) return [];
  const cache = await caches.open(sharedCache);
  const requests = [...(await cache.keys())].sort((a, b) => a.url.localeCompare(b.url, 'en', { numeric: true }));
  const files: File[] = [];
  for (const req of requests) {
    const res = await cache.match(req);
    if (res) {
      const blob = await res.blob();
      files.push(new File([blob], decodeURIComponent(res.headers.get(nameHeader) ?? 'image'), { type: blob.type }));
    }
    await cache.delete(req);
  }
  return files;
}
