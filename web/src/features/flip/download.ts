// Saving results: one file through a temporary link, several as one ZIP. The ZIP library loads
// only when a ZIP is made. Images are already compressed, so the ZIP stores them as they are.

/** Starts the download of a blob under a name, like a link with `download`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has taken the URL once the click is handled; give it a moment on slow devices.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** One ZIP of named files, stored without recompression. */
export async function zipFiles(files: readonly { name: string; bytes: Uint8Array }[]): Promise<Blob> {
  const { zipSync } = await import('fflate');
  const entries = Object.fromEntries(files.map((f) => [f.name, [f.bytes, { level: 0 }] as const]));
  const zipped = zipSync(entries as Parameters<typeof zipSync>[0]);
  return new Blob([zipped], { type: 'application/zip' });
}
