/** Built in this change. */
export function SettingsPage() {
  return null;
}
