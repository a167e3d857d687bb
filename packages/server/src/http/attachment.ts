/**
 * Content-Disposition of a download: an ASCII `filename` for old clients and the exact name as
 * `filename*` (RFC 6266 / RFC 5987, UTF-8), so accents survive.
 */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
