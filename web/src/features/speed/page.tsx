import { PageIntro } from '../../app/PageIntro';
import { Prose } from '../../app/Prose';
import { SpeedCalculator } from './SpeedCalculator';
import type { PageProps } from '../../app/pageRegistry';
import { localeOf } from '../../lib/site';

export default function SpeedCalculatorPage({ payload, search, replaceSearch }: PageProps) {
  return (
    <>
      <PageIntro page="speed-calculator" />
      <SpeedCalculator lang={localeOf(payload.route.locale).lang} search={search} replaceSearch={replaceSearch} />
      <Prose html={payload.content} />
    </>
  );
}
