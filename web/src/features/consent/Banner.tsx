// The consent banner: a labelled region fixed at the bottom of the window (not a modal: the page
// stays usable), with Accept and Reject alike in size and look, nothing chosen in advance, and a
// close button that rejects. Opened from "Cookie settings" it says what was chosen, and when.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from '../../i18n/react';
import { localeOf, pagePath } from '../../lib/site';
import type { Choice, ConsentRecord } from './logic/record';

interface Props {
  /** The answer in force; undefined when none was given. */
  record?: ConsentRecord;
  /** Opened from "Cookie settings": focus moves in, and closing keeps the answer. */
  fromSettings: boolean;
  /** The browser sends Global Privacy Control. */
  gpc: boolean;
  zIndex: number;
  onChoose: (choice: Choice) => void;
  /** The close button and Escape: a rejection, unless an answer is in force. */
  onDismiss: () => void;
}

export function Banner({ record, fromSettings, gpc, zIndex, onChoose, onDismiss }: Props) {
  const { t, i18n } = useTranslation('consent');
  const ref = useRef<HTMLElement>(null);

  // Fixed over the bottom of the page: the page gets the banner's height below its footer, so
  // that nothing (the footer's "Cookie settings" above all) stays hidden under it.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const pad = () => (document.body.style.paddingBottom = `${el.offsetHeight}px`);
    pad();
    const observer = new ResizeObserver(pad);
    observer.observe(el);
    return () => {
      observer.disconnect();
      document.body.style.paddingBottom = '';
    };
  }, []);

  useEffect(() => {
    if (fromSettings) ref.current?.focus();
  }, [fromSettings]);

  const lang = localeOf(i18n.language).lang;
  const date = record ? new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(new Date(record.date)) : '';
  const answered = fromSettings && record;
  return (
    <section
      ref={ref}
      className="consent-banner"
      aria-labelledby="consent-title"
      tabIndex={-1}
      style={{ zIndex }}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        onDismiss();
      }}
    >
      <div className="consent-inner">
        <h2 id="consent-title">{t('title')}</h2>
        <p>
          {t('text')} <a href={`${pagePath('privacy-policy', i18n.language)}#${t('policyAnchor')}`}>{t('policyLink')}</a>
        </p>
        {answered && (
          <p className="consent-status">
            {record.choice === 'accepted' ? `${t('acceptedOn', { date })} ${t('withdrawNote')}` : t('rejectedOn', { date })}
          </p>
        )}
        {gpc && !record && <p className="consent-status">{t('gpc')}</p>}
        <div className="consent-actions">
          <button type="button" className="consent-choice" onClick={() => onChoose('accepted')}>
            {t('accept')}
          </button>
          <button type="button" className="consent-choice" onClick={() => onChoose('rejected')}>
            {t('reject')}
          </button>
        </div>
        <button type="button" className="consent-close" aria-label={record ? t('close') : t('closeReject')} title={record ? t('close') : t('closeReject')} onClick={onDismiss}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
    </section>
  );
}
