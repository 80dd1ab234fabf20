import { Layout } from './Layout';
import { loadedPage } from './pageRegistry';
import type { Payload } from '../router/payload';

interface Props {
  payload: Payload;
  year: number;
}

/** The whole page as the prerender step renders it: the layout around the page. Only its
 * islands (page/Island.tsx) ever run in the browser. */
export function App({ payload, year }: Props) {
  const { locale, page } = payload.route;
  const Page = loadedPage(page);
  return (
    <Layout locale={locale} page={page} year={year}>
      {/* eslint-disable-next-line react-hooks/static-components -- loadedPage returns the page module's own component, loaded once and cached, never one made here */}
      <Page payload={payload} />
    </Layout>
  );
}
