// The History panel: a native modal <dialog> (focus stays inside, Esc closes it, focus returns
// to the header's button) listing the saved entries newest first, grouped by day, filtered by
// tool and searched; each reopens its tool through its link, and may be deleted (with undo) or
// all cleared (after a confirmation).
import { useEffect, useId, useState } from 'react';
import { useTranslation } from '../../i18n/react';
import { localeOf, pagePath, type PageName } from '../../lib/site';
import { filterEntries, groupByDay, tools, type HistoryEntry, type Tool } from './logic/entries';
import type { SyncStatus } from '../../sync/client';
import type { HistoryStore } from './store';
import '../../ui/modal.css';
import { useModal } from '../../ui/useModal';
import './history.css';

const toolPage: Record<Tool, PageName> = { area: 'area-calculator', speed: 'speed-calculator', flip: 'flip-image' };

interface Props {
  store: HistoryStore;
  onClose: () => void;
}

type Notice = { kind: 'deleted'; entries: HistoryEntry[] } | { kind: 'cleared' } | undefined;

export function HistoryPanel({ store, onClose }: Props) {
  const { t, i18n } = useTranslation('history');
  const ref = useModal();
  const [entries, setEntries] = useState<HistoryEntry[]>();
  const [status, setStatus] = useState(store.status());
  const [tool, setTool] = useState<Tool | 'all'>('all');
  const [search, setSearch] = useState('');
  const [notice, setNotice] = useState<Notice>();
  const [confirming, setConfirming] = useState(false);
  const ids = useId();

  useEffect(() => {
    let live = true;
    const load = () =>
      void store.entries().then((e) => {
        if (!live) return;
        setEntries(e);
        setStatus(store.status());
      });
    load();
    const stop = store.subscribe(load);
    return () => {
      live = false;
      stop();
    };
  }, [store]);

  const locale = i18n.language;
  const shown = filterEntries(entries ?? [], tool, search);
  const days = groupByDay(shown, localeOf(locale).lang);
  const time = new Intl.DateTimeFormat(localeOf(locale).lang, { hour: 'numeric', minute: '2-digit' });

  const remove = async (e: HistoryEntry) => {
    await store.remove(e.id);
    setNotice({ kind: 'deleted', entries: [e] });
  };
  const undo = async (removed: HistoryEntry[]) => {
    await store.restore(removed);
    setNotice(undefined);
  };
  const clear = async () => {
    await store.clear();
    setConfirming(false);
    setNotice({ kind: 'cleared' });
  };

  return (
    <dialog ref={ref} className="history-dialog modal" aria-labelledby={`${ids}-title`} onClose={onClose}>
      <header className="history-head">
        <h2 id={`${ids}-title`}>{t('title')}</h2>
        <button type="button" className="modal-close" aria-label={t('translation:ui.close')} title={t('translation:ui.close')} onClick={() => ref.current?.close()}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      <p className="history-where">{t(store.where === 'account' ? 'accountWide' : store.where === 'memory' ? 'memoryOnly' : 'deviceOnly')}</p>
      {store.where === 'account' && <SyncState online={status.online} pending={status.pending} />}

      {entries && entries.length > 0 && (
        <div className="history-controls">
          <label>
            <span>{t('filter')}</span>
            <select value={tool} onChange={(e) => setTool(e.target.value as Tool | 'all')}>
              <option value="all">{t('allTools')}</option>
              {tools.map((k) => (
                <option key={k} value={k}>
                  {t(`tools.${k}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>{t('search')}</span>
            <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
          </label>
        </div>
      )}

      <p className="history-notice" role="status">
        {notice?.kind === 'deleted' && (
          <>
            {t('deleted', { title: notice.entries[0].title })}{' '}
            <button type="button" className="link-button" onClick={() => void undo(notice.entries)}>
              {t('undo')}
            </button>
          </>
        )}
        {notice?.kind === 'cleared' && t('cleared')}
      </p>

      {entries && entries.length === 0 && (
        <div className="history-empty">
          <h3>{t('emptyTitle')}</h3>
          <p>{t('emptyText')}</p>
        </div>
      )}
      {entries && entries.length > 0 && shown.length === 0 && <p className="history-empty">{t('noMatch')}</p>}

      {days.map((day) => (
        <section key={day.key} className="history-day" aria-labelledby={`${ids}-${day.key}`}>
          <h3 id={`${ids}-${day.key}`}>{day.label}</h3>
          <ul>
            {day.entries.map((e) => (
              <li key={e.id} className={`history-entry tool-${e.tool}`}>
                <a href={pagePath(toolPage[e.tool], locale) + e.query} aria-label={`${e.title}. ${t('open', { tool: t(`tools.${e.tool}`) })}`}>
                  <span className="history-title">{e.title}</span>
                  <span className="history-meta">
                    {t(`tools.${e.tool}`)} · <time dateTime={new Date(e.at).toISOString()}>{time.format(e.at)}</time>
                    {e.detail && ` · ${e.detail}`}
                  </span>
                </a>
                <button type="button" className="history-delete" aria-label={t('deleteEntry', { title: e.title })} title={t('delete')} onClick={() => void remove(e)}>
                  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                    <path d="M5 7h14M10 7V4h4v3M7 7l1 13h8l1-13" />
                  </svg>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}

      {entries && entries.length > 0 && (
        <footer className="history-foot">
          {confirming ? (
            <div className="history-confirm" role="group" aria-labelledby={`${ids}-confirm`}>
              <p id={`${ids}-confirm`}>{t('clearConfirm')}</p>
              <button type="button" className="danger" onClick={() => void clear()}>
                {t('clearYes')}
              </button>
              <button type="button" className="secondary" autoFocus onClick={() => setConfirming(false)}>
                {t('clearNo')}
              </button>
            </div>
          ) : (
            <button type="button" className="secondary" onClick={() => setConfirming(true)}>
              {t('clear')}
            </button>
          )}
        </footer>
      )}
    </dialog>
  );
}

/** The account's sync state, as a status line: screen readers hear it change. */
function SyncState({ online, pending }: SyncStatus) {
  const { t } = useTranslation('history');
  const state = online === 'online' ? (pending > 0 ? 'sending' : 'online') : online === 'offline' ? 'offline' : 'connecting';
  return (
    <p className={`history-sync sync-${state}`} role="status">
      <span className="history-sync-dot" aria-hidden="true" />
      {t(state)}
      {pending > 0 && <span className="history-pending">{t('pending', { count: pending })}</span>}
    </p>
  );
}
