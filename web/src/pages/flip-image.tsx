import { PageIntro } from '../components/PageIntro';
import { Prose } from '../components/Prose';
import { FlipImageTool } from '../image/FlipImageTool';
import type { PageProps } from '../pageRegistry';
import { localeOf } from '../site';

export default function FlipImagePage({ payload }: PageProps) {
  return (
    <>
      <PageIntro page="flip-image" />
      <FlipImageTool lang={localeOf(payload.route.locale).lang} />
      <Prose html={payload.content} />
    </>
  );
}
