// The avatar: choose an image (it stays in the browser), crop it square in the image cropper,
// save the 256 × 256 px JPEG to the account; or remove it.
import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from '../../i18n/react';
import { Cropper, type CropperHandle, type CropperState } from '../../cropper';
import { toasts } from '../../ui/toasts';
import { avatarCanvas, avatarDataUrl, avatarSize } from './avatar';
import { Avatar } from './Avatar';
import type { Account } from './controller';
import { errorText, fieldError } from './logic/errors';
import type { AccountUser } from './session';
import { localeOf } from '../../lib/site';

interface Props {
  account: Account;
  user: AccountUser;
}

export function AvatarEditor({ account, user }: Props) {
  const { t, i18n } = useTranslation('account');
  const [file, setFile] = useState<File>();
  const [state, setState] = useState<CropperState>('idle');
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  const cropper = useRef<CropperHandle>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = e.target.files?.[0];
    e.target.value = ''; // choosing the same file again is a change too
    if (!chosen) return;
    setError(undefined);
    setFile(chosen);
    requestAnimationFrame(() => heading.current?.focus()); // the cropper opens here: take the visitor there
  };

  const done = () => {
    setFile(undefined);
    requestAnimationFrame(() => chooseButton.current?.focus());
  };

  const fail = (code: string) => setError(errorText(t, fieldError({ code, status: 0 }), localeOf(i18n.language).lang));

  const save = async () => {
    let url: string | undefined;
    try {
      const canvas = avatarCanvas(cropper.current!.getCroppedCanvas());
      url = avatarDataUrl((quality) => canvas.toDataURL('image/jpeg', quality));
    } catch {
      url = undefined; // no image loaded: the cropper says so
    }
    if (!url) return fail('invalid-avatar');
    const failure = await account.updateProfile({ avatar: url });
    if (failure) return fail(failure.code);
    toasts.show(t('avatarSaved'), { type: 'success' });
    done();
  };

  const remove = async () => {
    const failure = await account.updateProfile({ avatar: '' });
    if (failure) return fail(failure.code);
    toasts.show(t('avatarRemoved'), { type: 'success' });
    requestAnimationFrame(() => chooseButton.current?.focus());
  };

  return (
    <section className="account-avatar-section" aria-labelledby="account-avatar-heading">
      <h3 id="account-avatar-heading">{t('avatar')}</h3>
      {!file && (
        <>
          <div className="account-avatar-row">
            <Avatar user={user} />
            <div className="account-actions">
              <button type="button" ref={chooseButton} onClick={() => input.current?.click()}>
                {t('chooseImage')}
              </button>
              {user.avatar && (
                <button type="button" className="secondary" onClick={() => void remove()}>
                  {t('removeAvatar')}
                </button>
              )}
            </div>
          </div>
          <p className="field-hint">{t('chooseHint')}</p>
        </>
      )}
      <input ref={input} type="file" accept="image/*" hidden onChange={onFile} />
      {file && (
        <div className="account-crop">
          <h4 ref={heading} tabIndex={-1}>
            {t('cropHeading')}
          </h4>
          <Cropper
            ref={cropper}
            src={file}
            ratio={[1, 1]}
            fixed
            autoCrop
            outputType="jpeg"
            outputWidth={avatarSize}
            onStateChange={setState}
            labels={{
              region: t('cropper.region'),
              instructions: t('cropper.instructions'),
              size: (width, height) => `${width} × ${height} px`,
              tools: t('cropper.tools'),
              zoomIn: t('cropper.zoomIn'),
              zoomOut: t('cropper.zoomOut'),
              rotateLeft: t('cropper.rotateLeft'),
              rotateRight: t('cropper.rotateRight'),
              reset: t('cropper.reset'),
              loading: t('cropper.loading'),
              error: t('cropper.error'),
            }}
          />
          <div className="account-actions">
            <button type="button" onClick={() => void save()} disabled={state !== 'loaded'}>
              {t('saveAvatar')}
            </button>
            <button type="button" className="secondary" onClick={done}>
              {t('cancel')}
            </button>
          </div>
        </div>
      )}
      <p className="field-error" role="alert">
        {error}
      </p>
    </section>
  );
}
