import { PageIntro } from '../components/PageIntro';

export default function FlipImage() {
  return <PageIntro page="flip-image" />;
}
