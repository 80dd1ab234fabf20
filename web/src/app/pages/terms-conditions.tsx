import { PageIntro } from '../../page/PageIntro';
import { Prose } from '../../page/Prose';
import { Contents } from '../Contents';
import type { PageProps } from '../../page/module';

export default function TermsConditions({ payload }: PageProps) {
  return (
    <>
      <PageIntro page="terms-conditions" />
      {payload.toc && <Contents sections={payload.toc} />}
      <Prose html={payload.content} />
    </>
  );
}
