import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n/react';

interface Props {
  /** The result as plain text, or undefined while there is none. */
  resultText?: string;
  /** The query string of the current inputs: the link to copy. */
  search: string;
  onReset: () => void;
}

type Status = 'copied' | 'linkCopied' | 'copyFailed';

/** Copy the result, copy a link to it, start over; the outcome is announced. */
export function ResultActions({ resultText, search, onReset }: Props) {
  const { t } = useTranslation('calculator');
  const [status, setStatus] = useState<Status | undefined>();
  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(() => setStatus(undefined), 4000);
    return () => clearTimeout(timer);
  }, [status]);

  const copy = async (text: string, done: Status) => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus(done);
    } catch {
      setStatus('copyFailed'); // no clipboard (insecure context) or permission refused
    }
  };
  const link = () => location.origin + location.pathname + search;

  return (
    <div className="result-actions">
      <button type="button" disabled={!resultText} onClick={() => resultText && void copy(resultText, 'copied')}>
        {t('copyResult')}
      </button>
      <button type="button" onClick={() => void copy(link(), 'linkCopied')}>
        {t('copyLink')}
      </button>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          setStatus(undefined);
          onReset();
        }}
      >
        {t('reset')}
      </button>
      <p className="action-status" role="status">
        {status && t(status)}
      </p>
    </div>
  );
}
