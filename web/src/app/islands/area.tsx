// The area calculator's island: hydrated at load, as it is the page's reason to be.
import { AreaCalculator } from '../../features/area/public';
import { usePageQuery } from '../../page/query';

export default function AreaIsland({ lang }: { lang: string }) {
  const { search, replaceSearch } = usePageQuery();
  return <AreaCalculator lang={lang} search={search} replaceSearch={replaceSearch} />;
}
