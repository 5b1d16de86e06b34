import { useMessage } from '../form/field.tsx';

/** An error that belongs to a group of fields rather than to one of them. */
export function FieldMessage({ text }: { text: string }) {
  const message = useMessage();
  return <p className="text-sm font-medium text-danger">{message(text)}</p>;
}
