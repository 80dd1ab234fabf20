import type { Notice } from './logic/workspace';

/** What the page is doing (with a progress bar) or last did, and the notices so far. */
export function StatusLine({ busy, status, notices }: { busy?: string; status: string; notices: readonly Notice[] }) {
  return (
    <>
      <div className="flip-status" role="status" aria-live="polite">
        {busy ? (
          <>
            <progress className="flip-progress" aria-label={busy} /> {busy}
          </>
        ) : (
          status
        )}
      </div>
      {notices.length > 0 && (
        <ul className="flip-notices">
          {notices.map((n) => (
            <li key={n.key} className={n.kind === 'error' ? 'notice notice-error' : 'notice'} role={n.kind === 'error' ? 'alert' : undefined}>
              {n.text}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
