/**
 * Normalises `aapt2 dump resources` output for comparing a source APK with the universal APK
 * bundletool builds from our AAB. The only difference bundletool itself makes to the table is the
 * `xml/splits0` resource it injects (pointing at `res/xml/splits0.xml`), in the existing `xml` type,
 * in a new one, or in a new package 0x7f when the APK had no resource table; removing it from both sides leaves what must be identical: every package, type,
 * entry, id, configuration and value.
 */

const INDENT = /^( *)/;

function depth(line: string): number {
  return (INDENT.exec(line)?.[1].length ?? 0) / 2;
}

/** Resource names bundletool adds to the base of every universal APK. */
export const BUNDLETOOL_INJECTED_RESOURCES = new Set(['xml/splits0']);

/**
 * Drops bundletool's injected resources (with their value lines), fixes up the enclosing type's
 * entryCount and drops a type header left with no entry.
 */
export function normaliseResourceDump(lines: readonly string[]): string[] {
  const out: string[] = [];
  // Index in `out` of the current type header and how many entries were removed under it.
  let typeHeader = -1;
  let removed = 0;
  let kept = 0;
  // Index of the current package header, and whether a type was dropped from it / kept in it.
  let packageHeader = -1;
  let typeDropped = false;
  let typeKept = false;
  const closeType = (): void => {
    if (typeHeader < 0) return;
    if (removed > 0 && kept === 0) {
      out.splice(typeHeader, 1);
      typeDropped = true;
    } else {
      typeKept = true;
      if (removed > 0) out[typeHeader] = out[typeHeader].replace(/entryCount=(\d+)/, (_m, n: string) => `entryCount=${Number(n) - removed}`);
    }
    typeHeader = -1;
  };
  // bundletool creates package 0x7f for its resource when the APK has no resource table.
  const closePackage = (): void => {
    closeType();
    if (packageHeader >= 0 && typeDropped && !typeKept && packageHeader === out.length - 1) out.pop();
    packageHeader = -1;
    typeDropped = false;
    typeKept = false;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trimStart();
    if (trimmed.startsWith('Package ')) {
      closePackage();
      packageHeader = out.length;
      out.push(line);
      continue;
    }
    if (trimmed.startsWith('type ')) {
      closeType();
      typeHeader = out.length;
      removed = 0;
      kept = 0;
      out.push(line);
      continue;
    }
    const resource = /^resource 0x[0-9a-f]+ (\S+)/.exec(trimmed);
    if (resource) {
      if (BUNDLETOOL_INJECTED_RESOURCES.has(resource[1])) {
        removed++;
        const d = depth(line);
        while (i + 1 < lines.length && depth(lines[i + 1]) > d) i++;
        continue;
      }
      kept++;
    }
    out.push(line);
  }
  closePackage();
  return out;
}
