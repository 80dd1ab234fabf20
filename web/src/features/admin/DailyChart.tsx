import { useId, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from '../../i18n/react';
import { busiest, xLabels, yTicks } from './logic/chart';
import type { Formats } from './logic/format';
import type { DayCount } from './logic/report';

interface Props {
  days: DayCount[];
  fmt: Formats;
}

/**
 * Views (bars) and visitors (a line) per day. The plot is an SVG stretched to its box, one unit
 * per day across and 100 up; the axis labels are HTML around it, so they keep their size on
 * any screen. Pointer and arrow keys pick a day, read out above the plot; the same numbers are
 * in a table below it.
 */
export function DailyChart({ days, fmt }: Props) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [picked, setPicked] = useState<number>();
  const ticks = yTicks(Math.max(0, ...days.map((d) => Math.max(d.views, d.visitors))));
  const top = ticks.at(-1)!;
  const y = (v: number) => 100 - (v / top) * 100;
  const n = days.length;
  const peak = busiest(days.map((d) => d.views));
  const total = days.reduce((a, d) => ({ views: a.views + d.views, visitors: a.visitors + d.visitors }), { views: 0, visitors: 0 });
  const summary = t('chart.summary', {
    views: fmt.count(total.views),
    visitors: fmt.count(total.visitors),
    from: fmt.longDay(days[0].day),
    to: fmt.longDay(days[n - 1].day),
    day: fmt.longDay(days[peak].day),
    dayViews: fmt.count(days[peak].views),
  });
  const shown = picked ?? n - 1;
  const d = days[shown];
  const readout = t('chart.day', { day: fmt.longDay(d.day), views: fmt.count(d.views), visitors: fmt.count(d.visitors), bots: fmt.count(d.bots) });

  const pick = (i: number) => setPicked(Math.min(n - 1, Math.max(0, i)));
  const onKey = (e: KeyboardEvent) => {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowDown: -1, ArrowUp: 1, PageDown: -7, PageUp: 7 }[e.key];
    if (step !== undefined) pick(shown + step);
    else if (e.key === 'Home') pick(0);
    else if (e.key === 'End') pick(n - 1);
    else return;
    e.preventDefault();
  };
  const onPointer = (e: PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    pick(Math.floor(((e.clientX - box.left) / box.width) * n));
  };

  return (
    <figure className="admin-chart">
      <figcaption>
        <span className="admin-legend admin-legend-views">{t('columns.views')}</span>
        <span className="admin-legend admin-legend-visitors">{t('columns.visitors')}</span>
      </figcaption>
      <p className="admin-readout" aria-live="polite">
        {readout}
      </p>
      <div className="admin-plot-frame">
        <ol className="admin-yaxis" aria-hidden="true">
          {ticks.map((v) => (
            <li key={v} style={{ bottom: `${(v / top) * 100}%` }}>
              {fmt.count(v)}
            </li>
          ))}
        </ol>
        <div
          className="admin-plot"
          role="group"
          tabIndex={0}
          aria-label={summary}
          aria-describedby={`${id}-hint`}
          onKeyDown={onKey}
          onPointerMove={onPointer}
          onPointerDown={onPointer}
        >
          {/* Strokes keep their width however the plot is stretched (an attribute: the HTML
              checker does not know the CSS property). */}
          <svg viewBox={`0 0 ${n} 100`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
            {ticks.map((v) => (
              <line key={v} className="admin-grid" vectorEffect="non-scaling-stroke" x1="0" x2={n} y1={y(v)} y2={y(v)} />
            ))}
            <rect className="admin-pick" vectorEffect="non-scaling-stroke" x={shown} y="0" width="1" height="100" />
            {days.map((day, i) => (
              <rect key={day.day} className="admin-bar" x={i + 0.15} width="0.7" y={y(day.views)} height={100 - y(day.views)} />
            ))}
            <polyline className="admin-line" vectorEffect="non-scaling-stroke" points={days.map((day, i) => `${i + 0.5},${y(day.visitors)}`).join(' ')} />
          </svg>
        </div>
        <ol className="admin-xaxis" aria-hidden="true">
          {xLabels(n, 5).map((i) => (
            <li key={i} style={{ left: `${((i + 0.5) / n) * 100}%` }}>
              {fmt.day(days[i].day)}
            </li>
          ))}
        </ol>
      </div>
      <p id={`${id}-hint`} className="field-hint">
        {t('chart.hint')}
      </p>
      <details className="admin-days">
        <summary>{t('chart.table')}</summary>
        {/* A region of its own that scrolls: focusable, so that the keyboard scrolls it too. */}
        <div className="admin-table-scroll" role="region" aria-label={t('chart.table')} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('columns.day')}</th>
                <th scope="col">{t('columns.views')}</th>
                <th scope="col">{t('columns.visitors')}</th>
                <th scope="col">{t('columns.bots')}</th>
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((day) => (
                <tr key={day.day}>
                  <th scope="row">{fmt.longDay(day.day)}</th>
                  <td>{fmt.count(day.views)}</td>
                  <td>{fmt.count(day.visitors)}</td>
                  <td>{fmt.count(day.bots)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
