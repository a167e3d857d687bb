/**
 * Text the CLI did not write itself — the server's answers (messages, logs, file names, e-mail),
 * an APK's manifest, Google's messages — made inert before it is printed, on a terminal or not:
 *   - no escape sequence (colours, OSC window titles, clipboard writes, hyperlinks) and no other
 *     C0/C1 control character survives; tabs become spaces, CR and CRLF a newline;
 *   - no line can be taken for a GitHub Actions workflow command: the runner runs a line that
 *     starts with `::` once leading blanks are trimmed (`::add-mask::`, `::stop-commands::`,
 *     `::error::`) and a legacy `##[command]` anywhere in a line, so those are defused.
 * Only the CLI's own formatting (the live status line's redraws) is written raw.
 */

// CSI; OSC, DCS, SOS, PM and APC strings up to BEL or ST (or the end); other two-character
// escapes; then the 8-bit C1 forms of CSI and of the strings.
const ESCAPES =
  // eslint-disable-next-line no-control-regex
  /\x1b\[[0-?]*[ -/]*[@-~]?|\x1b[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -~]?|\x9b[0-?]*[ -/]*[@-~]?|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?/g;
// Every C0 control but the newline, DEL, C1, and the bidirectional overrides that reorder what is shown.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** A line the runner would parse as a workflow command, shown with a mark in front instead. */
function defuseLine(line: string): string {
  const defused = line.replace(/##\[/g, '# #[');
  return defused.trimStart().startsWith('::') ? `» ${defused}` : defused;
}

/**
 * Foreign text made safe to print. With `keepNewlines` (logs, multi-line reports) its lines stay
 * lines, each defused; without, it is folded onto one line (messages, names, ids, codes).
 */
export function sanitize(text: string, keepNewlines = true): string {
  const cleaned = text
    .replace(ESCAPES, '')
    .replace(/\t/g, ' ')
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(CONTROL, '');
  if (!keepNewlines) return defuseLine(cleaned.replace(/\n+/g, ' '));
  return cleaned.split('\n').map(defuseLine).join('\n');
}

/** Foreign multi-line text after a prefix of the CLI's: its further lines indented below the first, so none passes for a line of the CLI. */
export function indentedText(text: string, indent = '    '): string {
  return sanitize(text).replace(/\n/g, `\n${indent}`);
}
