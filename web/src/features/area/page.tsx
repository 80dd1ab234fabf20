import { Island } from '../../page/Island';
import { PageIntro } from '../../page/PageIntro';
import { Prose } from '../../page/Prose';
import type { PageProps } from '../../page/module';
import { localeOf } from '../../lib/site';

export default function AreaCalculatorPage({ payload }: PageProps) {
  return (
    <>
      <PageIntro page="area-calculator" />
      <Island name="area" when="load" props={{ lang: localeOf(payload.route.locale).lang }} />
      <Prose html={payload.content} />
    </>
  );
}
