/** Built in this change. */
export function CyclesPage() {
  return null;
}
