import { AreaCalculator } from '../calculators/area/AreaCalculator';
import { PageIntro } from '../components/PageIntro';
import { Prose } from '../components/Prose';
import type { PageProps } from '../pageRegistry';
import { localeOf } from '../site';

export default function AreaCalculatorPage({ payload, search, replaceSearch }: PageProps) {
  return (
    <>
      <PageIntro page="area-calculator" />
      <AreaCalculator lang={localeOf(payload.route.locale).lang} search={search} replaceSearch={replaceSearch} />
      <Prose html={payload.content} />
    </>
  );
}
