import { PageIntro } from '../components/PageIntro';

export default function SpeedCalculator() {
  return <PageIntro page="speed-calculator" />;
}
