/** Built in this change. */
export function TeamPage() {
  return null;
}
