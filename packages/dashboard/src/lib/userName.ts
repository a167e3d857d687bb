/** How the screens call a person: the name given at registration, else the email. */
export function displayName(user: { name?: string | null; email: string }): string {
  const name = user.name?.trim();
  return name ? name : user.email;
}

/** 'Boas-vindas, Ana!' — neutral in gender, with the name when there is one. */
export function greeting(user: { name?: string | null; email: string }): string {
  return `Boas-vindas, ${displayName(user)}!`;
}
