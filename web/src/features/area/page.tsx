import { AreaCalculator } from './AreaCalculator';
import { PageIntro } from '../../app/PageIntro';
import { Prose } from '../../app/Prose';
import type { PageProps } from '../../app/pageRegistry';
import { localeOf } from '../../lib/site';

export default function AreaCalculatorPage({ payload, search, replaceSearch }: PageProps) {
  return (
    <>
      <PageIntro page="area-calculator" />
      <AreaCalculator lang={localeOf(payload.route.locale).lang} search={search} replaceSearch={replaceSearch} />
      <Prose html={payload.content} />
    </>
  );
}
