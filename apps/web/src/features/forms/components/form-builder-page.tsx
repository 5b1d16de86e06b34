/** Built in this change. */
export function FormBuilderPage() {
  return null;
}
