// The account's storage as the data panel shows it: bytes in the page's language, in kB or MB
// (powers of ten, as the server's messages write them), and how full the quota is.

/** GET /auth/me's storage: the bytes the account's documents take, and the quota (0: none). */
export interface Storage {
  used: number;
  quota: number;
}

/** n bytes as "12.3 MB" or "850 kB" in lang. */
export function formatBytes(n: number, lang: string): string {
  const mb = n >= 1e6;
  return new Intl.NumberFormat(lang, { style: 'unit', unit: mb ? 'megabyte' : 'kilobyte', maximumFractionDigits: 1 }).format(
    n / (mb ? 1e6 : 1e3),
  );
}

/** What the meter shows: the texts, and the share used from 0 to 1 (undefined without a quota). */
export function storageView(s: Storage, lang: string): { used: string; quota?: string; fraction?: number } {
  if (s.quota <= 0) return { used: formatBytes(s.used, lang) };
  return { used: formatBytes(s.used, lang), quota: formatBytes(s.quota, lang), fraction: Math.min(1, Math.max(0, s.used / s.quota)) };
}
