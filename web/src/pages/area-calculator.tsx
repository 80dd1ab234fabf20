import { PageIntro } from '../components/PageIntro';

export default function AreaCalculator() {
  return <PageIntro page="area-calculator" />;
}
