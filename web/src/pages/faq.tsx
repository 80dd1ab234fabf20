import { PageIntro } from '../components/PageIntro';

export default function Faq() {
  return <PageIntro page="faq" />;
}
