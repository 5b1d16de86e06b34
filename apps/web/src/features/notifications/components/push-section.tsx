/** Push notifications on this device: filled in with the notifications work. */
export function PushSection() {
  return null;
}
