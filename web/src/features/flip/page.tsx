import { Island } from '../../page/Island';
import { PageIntro } from '../../page/PageIntro';
import { Prose } from '../../page/Prose';
import type { PageProps } from '../../page/module';
import { localeOf } from '../../lib/site';

export default function FlipImagePage({ payload }: PageProps) {
  return (
    <>
      <PageIntro page="flip-image" />
      <Island name="flip" when="load" props={{ lang: localeOf(payload.route.locale).lang }} />
      <Prose html={payload.content} />
    </>
  );
}
