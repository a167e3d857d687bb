/**
 * Normalises `aapt2 dump resources` output for comparing a source APK with the universal APK
 * bundletool builds from our AAB. The only difference bundletool itself makes to the table is the
 * `xml/splits0` resource it injects (pointing at `res/xml/splits0.xml`), in the existing `xml` type
 * or in a new one; removing it from both sides leaves what must be identical: every package, type,
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
  const closeType = (): void => {
    if (typeHeader < 0 || removed === 0) return;
    if (kept === 0) {
      out.splice(typeHeader, 1);
    } else {
      out[typeHeader] = out[typeHeader].replace(/entryCount=(\d+)/, (_m, n: string) => `entryCount=${Number(n) - removed}`);
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trimStart();
    if (trimmed.startsWith('type ') || trimmed.startsWith('Package ')) {
      closeType();
      typeHeader = trimmed.startsWith('type ') ? out.length : -1;
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
  closeType();
  return out;
}
