/** Built in this change. */
export function ProgramsPage() {
  return null;
}
