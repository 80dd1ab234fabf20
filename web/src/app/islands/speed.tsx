// The speed calculator's island: hydrated at load, as it is the page's reason to be.
import { SpeedCalculator } from '../../features/speed/public';
import { usePageQuery } from '../../page/query';

export default function SpeedIsland({ lang }: { lang: string }) {
  const { search, replaceSearch } = usePageQuery();
  return <SpeedCalculator lang={lang} search={search} replaceSearch={replaceSearch} />;
}
