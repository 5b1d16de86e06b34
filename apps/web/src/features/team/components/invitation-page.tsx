/** Built in this change. */
export function InvitationPage() {
  return null;
}
