import { PageIntro } from '../PageIntro';
import { Prose } from '../Prose';
import { Contents } from '../Contents';
import type { PageProps } from '../pageRegistry';

export default function PrivacyPolicy({ payload }: PageProps) {
  return (
    <>
      <PageIntro page="privacy-policy" />
      {payload.toc && <Contents sections={payload.toc} />}
      <Prose html={payload.content} />
    </>
  );
}
