import { get, type FieldError, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';

/** A react-hook-form form over values `T` (validated into `O`), as the field groups receive it. */
export type FormBinding<T extends FieldValues, O = T> = UseFormReturn<T, unknown, O>;

/** A field's registration and error message, to spread onto a TextField or SelectField. */
export function fieldOf<T extends FieldValues, O>(form: FormBinding<T, O>) {
  return (name: keyof T & string) => ({
    error: (get(form.formState.errors, name) as FieldError | undefined)?.message,
    ...form.register(name as Path<T>),
  });
}
