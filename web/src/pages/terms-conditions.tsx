import { PageIntro } from '../components/PageIntro';

export default function TermsConditions() {
  return <PageIntro page="terms-conditions" />;
}
