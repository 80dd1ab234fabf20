// The header's theme switch. Signing in can apply the account's theme: the switch then starts
// afresh from the stored one.
import { useThemeRevision } from '../../features/account/public';
import { ThemeSwitch } from '../../theme/ThemeSwitch';

export default function ThemeIsland() {
  return <ThemeSwitch key={useThemeRevision()} />;
}
