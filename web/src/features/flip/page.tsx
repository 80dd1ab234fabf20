import { PageIntro } from '../../app/PageIntro';
import { Prose } from '../../app/Prose';
import { FlipImageTool } from './FlipImageTool';
import type { PageProps } from '../../app/pageRegistry';
import { localeOf } from '../../lib/site';

export default function FlipImagePage({ payload }: PageProps) {
  return (
    <>
      <PageIntro page="flip-image" />
      <FlipImageTool lang={localeOf(payload.route.locale).lang} />
      <Prose html={payload.content} />
    </>
  );
}
