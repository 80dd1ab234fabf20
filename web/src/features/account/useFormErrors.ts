// A form's errors: one message per field at most, cleared as the visitor edits that field, and
// focus moved to the first field in error so that its message is read with it.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/react';
import { localeOf } from '../../lib/site';
import { errorText, type Field, type FieldError } from './logic/errors';

export function useFormErrors(focusOrder: readonly Field[]) {
  const { t, i18n } = useTranslation('account');
  const [errors, setErrors] = useState<readonly FieldError[]>([]);
  const [shown, setShown] = useState(0); // bumped when errors are shown, to move focus once
  const refs = useRef(new Map<Field, HTMLElement | null>());

  useEffect(() => {
    if (!shown) return;
    const first = focusOrder.find((f) => errors.some((e) => e.field === f));
    if (first) refs.current.get(first)?.focus();
  }, [shown]); // eslint-disable-line react-hooks/exhaustive-deps -- once per shown set of errors

  const lang = localeOf(i18n.language).lang;
  return {
    /** The message for a field, if any. */
    message(field: Field): string | undefined {
      const e = errors.find((x) => x.field === field);
      return e && errorText(t, e, lang);
    },
    show(next: readonly FieldError[]) {
      setErrors(next);
      setShown((n) => n + 1);
    },
    /** The visitor changed a field: its message has done its job. */
    edited(field: Field) {
      setErrors((list) => (list.some((e) => e.field === field) ? list.filter((e) => e.field !== field) : list));
    },
    clear: () => setErrors([]),
    /** A ref callback for the element to focus when `field` is in error. */
    ref: (field: Field) => (el: HTMLElement | null) => void refs.current.set(field, el),
  };
}
