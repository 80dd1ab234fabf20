import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { useTranslation } from '../../i18n/react';
import { statsOther } from '../../lib/api';
import { localeOf, isLocaleCode } from '../../lib/site';
import { DailyChart } from './DailyChart';
import { RangePicker } from './RangePicker';
import { TopList, type Row } from './TopList';
import { formats } from './logic/format';
import { csvName, fetchCsv, fetchReport, type Outcome, type Report } from './logic/report';
import type { Range } from './logic/range';

interface Props {
  token: string;
  range: Range;
  today: string;
  lang: string;
  onRange: (range: Range) => void;
  onRefused: (status: 401 | 404) => void;
}

/** How often a report that includes today is read again while the tab is visible. */
const refreshMs = 60_000;

/** The outcome of the last request answered: `key` says which (its range and refresh count). */
type State = { key?: string; report?: Report; failure?: number; updated?: number };

/** The report of a range: totals, the daily chart and the top lists. */
export function Dashboard({ token, range, today, lang, onRange, onRefused }: Props) {
  const { t } = useTranslation('admin');
  const fmt = useMemo(() => formats(lang), [lang]);
  const [state, setState] = useState<State>({});
  const [tick, setTick] = useState(0);
  const [csvFailed, setCsvFailed] = useState(false);
  const refused = useEffectEvent(onRefused);
  const key = `${range.from}/${range.to}/${tick}`;

  useEffect(() => {
    const abort = new AbortController();
    fetchReport(fetch, token, range, abort.signal).then(
      (o: Outcome) => {
        if (o.kind === 'refused') refused(o.status);
        // A failure keeps the last report on screen, with the reason above it.
        else if (o.kind === 'failed') setState((s) => ({ ...s, key, failure: o.status }));
        else setState({ key, report: o.report, updated: Date.now() });
      },
      () => {}, // aborted: a newer request owns the state
    );
    return () => abort.abort();
  }, [token, range, key]);

  // Today's numbers move: read them again every minute while someone is looking.
  useEffect(() => {
    if (range.to < today) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') setTick((n) => n + 1);
    }, refreshMs);
    return () => clearInterval(timer);
  }, [range.to, today]);

  const download = async () => {
    const blob = await fetchCsv(fetch, token, range);
    setCsvFailed(!blob);
    if (!blob) return;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = csvName(range);
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  };

  const { report, failure, updated } = state;
  const loading = state.key !== key;
  return (
    <>
      <RangePicker range={range} today={today} onChange={onRange} />
      <div className="admin-status">
        <p aria-live="polite">
          {loading
            ? t('status.loading')
            : failure !== undefined
              ? failure === 0
                ? t('status.offline')
                : t('status.failed', { status: failure })
              : updated !== undefined && t('status.updated', { time: fmt.time(updated) })}
        </p>
        <button type="button" className="secondary" onClick={() => setTick((n) => n + 1)} disabled={loading}>
          {failure !== undefined ? t('status.retry') : t('status.refresh')}
        </button>
        <button type="button" className="secondary" onClick={() => void download()}>
          {t('csv.download')}
        </button>
        {csvFailed && (
          <p className="field-error" role="alert">
            {t('csv.failed')}
          </p>
        )}
      </div>
      {report && <ReportView report={report} fmt={fmt} busy={loading} />}
    </>
  );
}

function ReportView({ report, fmt, busy }: { report: Report; fmt: ReturnType<typeof formats>; busy: boolean }) {
  const { t } = useTranslation('admin');
  const { totals } = report;
  const lists: { key: string; title: string; column: string; rows: Row[]; empty?: string }[] = [
    { key: 'pages', title: t('lists.pages'), column: t('lists.page'), rows: report.pages.map((p) => ({ key: p.path, label: <code className="admin-name">{p.path}</code>, views: p.views })) },
    {
      key: 'locales',
      title: t('lists.locales'),
      column: t('lists.locale'),
      rows: report.locales.map((l) => ({
        key: l.name,
        label: isLocaleCode(l.name) ? <span lang={localeOf(l.name).lang}>{localeOf(l.name).name}</span> : l.name,
        views: l.views,
      })),
    },
    {
      key: 'languages',
      title: t('lists.languages'),
      column: t('lists.language'),
      rows: report.languages.map((l) => {
        const name = l.name === 'und' || l.name === statsOther ? undefined : fmt.language(l.name);
        return {
          key: l.name,
          label: name ? (
            <>
              {name} <code>{l.name}</code>
            </>
          ) : l.name === 'und' ? (
            t('lists.unknown')
          ) : l.name === statsOther ? (
            t('lists.other')
          ) : (
            <code className="admin-name">{l.name}</code>
          ),
          views: l.views,
        };
      }),
    },
    {
      key: 'referrers',
      title: t('lists.referrers'),
      column: t('lists.referrer'),
      rows: report.referrers.map((r) => ({ key: r.name, label: r.name === statsOther ? t('lists.other') : r.name, views: r.views })),
      empty: t('lists.noReferrers'),
    },
    {
      key: 'screens',
      title: t('lists.screens'),
      column: t('lists.screen'),
      rows: report.screens.map((s) => ({ key: s.name, label: screenName(t, s.name), views: s.views })),
    },
  ];
  return (
    <div className="admin-report" aria-busy={busy}>
      <section aria-labelledby="admin-totals">
        <h2 id="admin-totals" className="visually-hidden">
          {t('totals.heading')}
        </h2>
        <dl className="admin-totals">
          <div>
            <dt>{t('totals.views')}</dt>
            <dd>{fmt.count(totals.views)}</dd>
          </div>
          <div>
            <dt>{t('totals.visitors')}</dt>
            <dd>{fmt.count(totals.visitors)}</dd>
            <dd className="admin-note">{t('totals.visitorsNote')}</dd>
          </div>
          <div>
            <dt>{t('totals.bots')}</dt>
            <dd>{fmt.count(totals.bots)}</dd>
            <dd className="admin-note">{t('totals.botsNote', { share: fmt.share(totals.botShare) })}</dd>
          </div>
          <div>
            <dt>{t('totals.realtime')}</dt>
            <dd>{fmt.count(report.realtime.visitors)}</dd>
            <dd className="admin-note">{t('totals.realtimeNote', { minutes: report.realtime.minutes })}</dd>
          </div>
        </dl>
      </section>
      <section aria-labelledby="admin-chart">
        <h2 id="admin-chart">{t('chart.heading')}</h2>
        {totals.views === 0 && totals.bots === 0 ? <p className="admin-empty">{t('chart.empty')}</p> : <DailyChart days={report.days} fmt={fmt} />}
      </section>
      <div className="admin-lists">
        {lists.map((l) => (
          <TopList key={l.key} title={l.title} column={l.column} rows={l.rows} total={totals.views} empty={l.empty ?? t('lists.none')} fmt={fmt} />
        ))}
      </div>
    </div>
  );
}

const screenNames = ['phone', 'tablet', 'desktop'] as const;

function screenName(t: ReturnType<typeof useTranslation<'admin'>>['t'], name: string) {
  return (screenNames as readonly string[]).includes(name) ? t(`screens.${name as (typeof screenNames)[number]}`) : name;
}
