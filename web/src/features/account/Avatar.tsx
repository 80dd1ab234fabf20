import { initialOf, type AccountUser } from './session';

/** The visitor's avatar, or their initial in a circle; decorative (the buttons beside it say whether there is one). */
export function Avatar({ user }: { user: AccountUser }) {
  return (
    <span className="account-picture" aria-hidden="true">
      {user.avatar ? <img src={user.avatar} alt="" width="256" height="256" /> : initialOf(user)}
    </span>
  );
}
