import { PageIntro } from '../components/PageIntro';
import { Prose } from '../components/Prose';
import { Contents } from '../components/Contents';
import type { PageProps } from '../pageRegistry';

export default function TermsConditions({ payload }: PageProps) {
  return (
    <>
      <PageIntro page="terms-conditions" />
      {payload.toc && <Contents sections={payload.toc} />}
      <Prose html={payload.content} />
    </>
  );
}
