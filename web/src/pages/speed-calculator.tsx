import { PageIntro } from '../components/PageIntro';
import { Prose } from '../components/Prose';
import { SpeedCalculator } from '../calculators/speed/SpeedCalculator';
import type { PageProps } from '../pageRegistry';
import { localeOf } from '../site';

export default function SpeedCalculatorPage({ payload, search, replaceSearch }: PageProps) {
  return (
    <>
      <PageIntro page="speed-calculator" />
      <SpeedCalculator lang={localeOf(payload.route.locale).lang} search={search} replaceSearch={replaceSearch} />
      <Prose html={payload.content} />
    </>
  );
}
