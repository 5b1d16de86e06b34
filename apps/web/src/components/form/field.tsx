import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { useTranslation } from 'react-i18next';
import { messageKey } from '@kaminuza/shared';

/** A validation message in the visitor's language (schemas and the API speak the spec's English). */
export function useMessage(): (text: string | undefined) => string | undefined {
  const { t } = useTranslation();
  return (text) => {
    if (!text) return undefined;
    const key = messageKey(text);
    return key ? t(key) : text;
  };
}

interface FieldFrameProps {
  label: string;
  error?: string;
  hint?: string;
  optional?: boolean;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** Label, control, hint and error wired together for screen readers. */
export function FieldFrame({ label, error, hint, optional, children }: FieldFrameProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="font-medium">
        {label}
        {optional && <span className="font-normal text-muted"> ({t('auth.optional')})</span>}
      </label>
      {children({ id, describedBy, invalid: !!error })}
      {hint && (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-danger">
          {message(error)}
        </p>
      )}
    </div>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: string;
  error?: string;
  hint?: string;
  optional?: boolean;
};

export function TextField({
  label,
  error,
  hint,
  optional,
  ref,
  ...input
}: TextFieldProps & { ref?: React.Ref<HTMLInputElement> }) {
  return (
    <FieldFrame label={label} error={error} hint={hint} optional={optional}>
      {({ id, describedBy, invalid }) => (
        <input
          ref={ref}
          id={id}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          className="field-input aria-invalid:border-danger"
          {...input}
        />
      )}
    </FieldFrame>
  );
}

type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & {
  label: string;
  error?: string;
  hint?: string;
  optional?: boolean;
};

export function TextAreaField({
  label,
  error,
  hint,
  optional,
  ref,
  ...textarea
}: TextAreaFieldProps & { ref?: React.Ref<HTMLTextAreaElement> }) {
  return (
    <FieldFrame label={label} error={error} hint={hint} optional={optional}>
      {({ id, describedBy, invalid }) => (
        <textarea
          ref={ref}
          id={id}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          className="field-input aria-invalid:border-danger"
          {...textarea}
        />
      )}
    </FieldFrame>
  );
}

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: string;
  error?: string;
  hint?: string;
  placeholder: string;
  options: ReadonlyArray<{ value: string; label: string }>;
};

export function SelectField({
  label,
  error,
  hint,
  placeholder,
  options,
  ref,
  ...select
}: SelectFieldProps & { ref?: React.Ref<HTMLSelectElement> }) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select
          ref={ref}
          id={id}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          className="field-input aria-invalid:border-danger"
          {...select}
        >
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/** A form-level message: the API's failure, announced. */
export function FormAlert({ children, tone = 'danger' }: { children: ReactNode; tone?: 'danger' | 'success' }) {
  return (
    <p
      role={tone === 'danger' ? 'alert' : 'status'}
      className={`rounded-lg border p-3 text-sm font-medium ${tone === 'danger' ? 'border-danger text-danger' : 'border-border bg-surface-muted text-fg'}`}
    >
      {children}
    </p>
  );
}

type CheckboxFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & {
  label: string;
  error?: string;
  children?: ReactNode;
};

/** A checkbox with its label beside it, extra content (links) below, and its error. */
export function CheckboxField({
  label,
  error,
  children,
  ref,
  ...input
}: CheckboxFieldProps & { ref?: React.Ref<HTMLInputElement> }) {
  const message = useMessage();
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-start gap-3">
        <input
          ref={ref}
          id={id}
          type="checkbox"
          aria-invalid={!!error}
          aria-describedby={error ? errorId : undefined}
          className="mt-0.5 size-6 shrink-0 accent-brand"
          {...input}
        />
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
      </div>
      {children}
      {error && (
        <p id={errorId} className="text-sm font-medium text-danger">
          {message(error)}
        </p>
      )}
    </div>
  );
}

/** The email address field of the account forms. */
export function EmailField(props: Omit<TextFieldProps, 'label' | 'type'> & { ref?: React.Ref<HTMLInputElement> }) {
  const { t } = useTranslation();
  return <TextField label={t('auth.email')} type="email" autoComplete="email" inputMode="email" {...props} />;
}
