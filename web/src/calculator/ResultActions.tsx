import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n/react';

/** What saving to the history came to (the history feature's SaveOutcome). */
export type SaveOutcome = 'saved' | 'repeat' | 'failed';

interface Props {
  /** The result as plain text, or undefined while there is none. */
  resultText?: string;
  /** The query string of the current inputs: the link to copy. */
  search: string;
  onReset: () => void;
  /** Saves the result and its inputs to the history; a copy saves too. */
  onSave: (resultText: string, search: string) => Promise<SaveOutcome>;
}

type Status = 'copied' | 'linkCopied' | 'copyFailed' | 'saved' | 'alreadySaved' | 'saveFailed';

const saveStatus: Record<SaveOutcome, Status> = { saved: 'saved', repeat: 'alreadySaved', failed: 'saveFailed' };

/** Save the result to the history, copy it, copy a link to it, start over; the outcome is
 * announced. A copy also saves (silently: the copy is what is announced), never twice in a row. */
export function ResultActions({ resultText, search, onReset, onSave }: Props) {
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
      return;
    }
    if (resultText) void onSave(resultText, search);
  };
  const save = async () => {
    if (resultText) setStatus(saveStatus[await onSave(resultText, search)]);
  };
  const link = () => location.origin + location.pathname + search;

  return (
    <div className="result-actions">
      <button type="button" disabled={!resultText} onClick={() => void save()}>
        {t('saveToHistory')}
      </button>
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
