import { useCallback, useRef, useState, type FormEvent } from 'react';
import type { core } from 'zod/mini';
import { safeParse } from 'zod/mini';

/*
 * The state of an account form (sign-in, sign-up, password reset): its fields' values, the messages of a
 * schema that is downloaded only when first needed, and the server's refusals placed on the fields. The
 * entry pages must stay light (ARCHITECTURE §7, ADR 044): the schemas (classic zod, phone-number data)
 * are fetched on the first check, never with the page.
 */

type Errors<T> = Partial<Record<keyof T & string, string>>;
type FieldElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export interface SchemaFormOptions {
  /** `submit`: checked when sent, then as the fields change; `touched`: each field from its first blur too. */
  mode?: 'submit' | 'touched';
}

export interface RegisteredField {
  name: string;
  ref: (element: FieldElement | null) => void;
  onBlur: () => void;
  onChange: () => void;
}

function valueOf(element: FieldElement): unknown {
  return element instanceof HTMLInputElement && element.type === 'checkbox' ? element.checked : element.value;
}

/** The first message of each top-level field, as react-hook-form's resolver reported them. */
export function firstMessages(issues: readonly core.$ZodIssue[]): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field === 'string') messages[field] ??= issue.message;
  }
  return messages;
}

export function useSchemaForm<Input extends object, Output = Input>(
  loadSchema: () => Promise<core.$ZodType<Output>>,
  { mode = 'submit' }: SchemaFormOptions = {},
) {
  const elements = useRef(new Map<string, FieldElement>());
  const touched = useRef(new Set<string>());
  const submitted = useRef(false);
  const refused = useRef<Record<string, string>>({});
  const [errors, setErrors] = useState<Errors<Input>>({});

  const values = useCallback(() => {
    const read: Record<string, unknown> = {};
    elements.current.forEach((element, name) => (read[name] = valueOf(element)));
    return read as Partial<Input>;
  }, []);

  /** Checks every field; shows the messages of those the person has reached (all, once sent). */
  const check = useCallback(async () => {
    const schema = await loadSchema();
    const result = safeParse(schema, values());
    const messages = result.success ? {} : firstMessages(result.error.issues);
    const shown: Record<string, string> = {};
    for (const [field, message] of Object.entries({ ...messages, ...refused.current })) {
      if (submitted.current || touched.current.has(field)) shown[field] = message;
    }
    setErrors(shown as Errors<Input>);
    return result;
  }, [loadSchema, values]);

  const register = useCallback(
    (name: keyof Input & string): RegisteredField => ({
      name,
      ref: (element) => {
        if (element) elements.current.set(name, element);
        else elements.current.delete(name);
      },
      onBlur: () => {
        if (mode !== 'touched') return;
        touched.current.add(name);
        void check();
      },
      onChange: () => {
        // A refusal from the server holds until the person changes what was refused.
        delete refused.current[name];
        if (submitted.current || touched.current.has(name)) void check();
      },
    }),
    [check, mode],
  );

  const handleSubmit = useCallback(
    (onValid: (data: Output) => void) => async (event: FormEvent) => {
      event.preventDefault();
      submitted.current = true;
      refused.current = {};
      const result = await check();
      if (result.success) {
        onValid(result.data);
        return;
      }
      // The first field in the form's order takes the focus, so its message is read out first.
      const invalid = firstMessages(result.error.issues);
      [...elements.current.entries()]
        .filter(([name]) => name in invalid)
        .map(([, element]) => element)
        .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))[0]
        ?.focus();
    },
    [check],
  );

  /** A field the server refused: its message shows until that field changes. */
  const setError = useCallback((name: string, { message }: { message: string }) => {
    refused.current[name] = message;
    setErrors((current) => ({ ...current, [name]: message }));
  }, []);

  return { register, handleSubmit, setError, values, errors };
}
