/** The name given at registration, when there is one (it stands beside the e-mail, never instead of it). */
export function givenName(user: { name?: string | null }): string | null {
  const name = user.name?.trim();
  return name ? name : null;
}

/** 'Boas-vindas, ana@x.com!' — neutral in gender, the e-mail as the product shows it, with the name beside it when there is one. */
export function greeting(user: { name?: string | null; email: string }): string {
  const name = givenName(user);
  return name ? `Boas-vindas, ${name} (${user.email})!` : `Boas-vindas, ${user.email}!`;
}
