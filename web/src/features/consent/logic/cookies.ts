// Withdrawing consent deletes what the tag manager left: every cookie the page can see but the
// site's own, on path / for this host and each of its parent domains (a tag such as Google
// Analytics sets its cookies on the widest domain it may, example.com for www.example.com).

/** The names of the cookies in a `document.cookie` string, except those in `keep`. */
export function cookieNames(cookies: string, keep: readonly string[]): string[] {
  const names = cookies
    .split(';')
    .map((part) => {
      const eq = part.indexOf('=');
      return (eq === -1 ? part : part.slice(0, eq)).trim();
    })
    .filter((name) => name !== '' && !keep.includes(name));
  return [...new Set(names)];
}

/**
 * The domains a cookie of `hostname` may have been set on: the host itself and each parent
 * with at least two labels (a browser refuses public suffixes such as co.uk itself, so trying
 * them costs nothing). An IP address has no parents.
 */
export function cookieDomains(hostname: string): string[] {
  if (/^[\d.]+$/.test(hostname) || hostname.includes(':') || !hostname.includes('.')) return [hostname];
  const labels = hostname.split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}

const expired = 'Thu, 01 Jan 1970 00:00:00 GMT';

/**
 * The `document.cookie` assignments that delete each named cookie: without a domain (a
 * host-only cookie) and with each domain, all on path /.
 */
export function deletions(names: readonly string[], hostname: string): string[] {
  const domains = cookieDomains(hostname);
  return names.flatMap((name) => [
    `${name}=; expires=${expired}; path=/`,
    ...domains.map((domain) => `${name}=; expires=${expired}; path=/; domain=${domain}`),
  ]);
}
