import { PageIntro } from '../components/PageIntro';

export default function PrivacyPolicy() {
  return <PageIntro page="privacy-policy" />;
}
