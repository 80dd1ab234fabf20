// The image flipper's island: hydrated at load, as it is the page's reason to be.
import { FlipImageTool } from '../../features/flip/public';

export default function FlipIsland({ lang }: { lang: string }) {
  return <FlipImageTool lang={lang} />;
}
