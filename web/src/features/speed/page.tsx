import { PageIntro } from '../../page/PageIntro';
import { Prose } from '../../page/Prose';
import { SpeedCalculator } from './SpeedCalculator';
import type { PageProps } from '../../page/module';
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
