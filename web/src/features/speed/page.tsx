import { Island } from '../../page/Island';
import { PageIntro } from '../../page/PageIntro';
import { Prose } from '../../page/Prose';
import type { PageProps } from '../../page/module';
import { localeOf } from '../../lib/site';

export default function SpeedCalculatorPage({ payload }: PageProps) {
  return (
    <>
      <PageIntro page="speed-calculator" />
      <Island name="speed" when="load" props={{ lang: localeOf(payload.route.locale).lang }} />
      <Prose html={payload.content} />
    </>
  );
}
