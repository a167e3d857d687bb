/**
 * Android platform codenames → API level (Build.VERSION_CODES names and the short forms used
 * in manifests and by the platform's preview builds). Keys are normalised: lower case, without
 * "_", "-", "." or spaces, so "IceCreamSandwich", "ICE_CREAM_SANDWICH" and "ice-cream-sandwich"
 * all match.
 */
const CODENAMES: Readonly<Record<string, number>> = {
  base: 1,
  base11: 2,
  cupcake: 3,
  donut: 4,
  eclair: 5,
  eclair01: 6,
  eclair0001: 6,
  eclairmr1: 7,
  froyo: 8,
  gingerbread: 9,
  gingerbreadmr1: 10,
  honeycomb: 11,
  honeycombmr1: 12,
  honeycombmr2: 13,
  icecreamsandwich: 14,
  ics: 14,
  icecreamsandwichmr1: 15,
  jellybean: 16,
  jellybeanmr1: 17,
  jellybeanmr2: 18,
  kitkat: 19,
  keylimepie: 19,
  k: 19,
  kitkatwatch: 20,
  kitkatw: 20,
  l: 21,
  lollipop: 21,
  lollipopmr1: 22,
  m: 23,
  marshmallow: 23,
  n: 24,
  nougat: 24,
  nmr1: 25,
  nougatmr1: 25,
  o: 26,
  oreo: 26,
  omr1: 27,
  oreomr1: 27,
  p: 28,
  pie: 28,
  q: 29,
  r: 30,
  s: 31,
  sv2: 32,
  sl: 32,
  t: 33,
  tiramisu: 33,
  u: 34,
  upsidedowncake: 34,
  v: 35,
  vanillaicecream: 35,
  baklava: 36,
};

/** The API level a codename stands for, or undefined when it is not a known codename. */
export function apiLevelForCodename(codename: string): number | undefined {
  const key = codename.trim().toLowerCase().replace(/[\s_.-]/g, '');
  return Object.hasOwn(CODENAMES, key) ? CODENAMES[key] : undefined;
}
