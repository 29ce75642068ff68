/** The spec's get_display_name: the full name, else the e-mail address. */
export function displayName(user: { firstName: string; lastName: string; email: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}
