/**
 * A page's long-form text, prerendered from Markdown (content.ts). The HTML is ours, made at
 * build time from files in the repository, never from a visitor's input.
 */
export function Prose({ html }: { html?: string }) {
  if (!html) return null;
  return <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />;
}
