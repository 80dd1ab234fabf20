import { AreaCalculator } from './AreaCalculator';
import { PageIntro } from '../../page/PageIntro';
import { Prose } from '../../page/Prose';
import type { PageProps } from '../../page/module';
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
