/** Download my data and delete my account: filled in with the account data work. */
export function DataRightsSection() {
  return null;
}
