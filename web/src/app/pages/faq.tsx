import { PageIntro } from '../../page/PageIntro';
import type { PageProps } from '../../page/module';

/**
 * The questions as an accordion of native <details>: it opens with Enter or Space, works
 * before any script runs, and find-in-page searches the closed answers too. A link to a
 * question (#id) opens it (router/start.ts: no script of this page runs in the browser).
 */
export default function Faq({ payload }: PageProps) {
  return (
    <>
      <PageIntro page="faq" />
      <div className="faq">
        {payload.faq?.map((item) => (
          <details key={item.id} id={item.id} className="faq-item">
            <summary>
              <h2 className="faq-question">{item.question}</h2>
            </summary>
            <div className="faq-answer prose" dangerouslySetInnerHTML={{ __html: item.answer }} />
          </details>
        ))}
      </div>
    </>
  );
}
