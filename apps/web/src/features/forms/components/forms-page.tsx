/** Built in this change. */
export function FormsPage() {
  return null;
}
