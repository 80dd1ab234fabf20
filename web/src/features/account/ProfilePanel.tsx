// The profile: the display name, and the avatar (chosen, cropped in the browser, saved as a
// 256 × 256 px JPEG; or removed).
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/react';
import { toasts } from '../../ui/toasts';
import { AvatarEditor } from './AvatarEditor';
import type { Account } from './controller';
import { displayNameLength, fieldError } from './logic/errors';
import { FormError } from '../../ui/fields/Field';
import { TextField } from '../../ui/fields/TextField';
import type { AccountUser } from './session';
import { useFormErrors } from './useFormErrors';

interface Props {
  account: Account;
  user: AccountUser;
}

export function ProfilePanel({ account, user }: Props) {
  const { t } = useTranslation('account');
  const [name, setName] = useState(user.displayName);
  const errors = useFormErrors(['displayName', 'form']);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    errors.clear();
    const failure = await account.updateProfile({ displayName: name.trim() });
    if (failure) errors.show([fieldError(failure)]);
    else toasts.show(t('nameSaved'), { type: 'success' });
  };

  return (
    <>
      <form noValidate onSubmit={(e) => void save(e)}>
          <TextField
            id="account-profile-name"
            label={t('displayName')}
            hint={t('displayNameHint')}
            autoComplete="nickname"
            maxLength={displayNameLength.max}
            value={name}
            onChange={(v) => {
              setName(v);
              errors.edited('displayName');
            }}
            error={errors.message('displayName')}
            inputRef={errors.ref('displayName')}
          />
          <FormError id="account-name-form-error" message={errors.message('form')} />
          <div className="account-actions">
            <button type="submit">{t('saveName')}</button>
          </div>
      </form>
      <AvatarEditor account={account} user={user} />
    </>
  );
}
