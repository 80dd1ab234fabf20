import { PageIntro } from '../PageIntro';
import { Prose } from '../Prose';
import { Contents } from '../Contents';
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
