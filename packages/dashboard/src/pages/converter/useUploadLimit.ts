/**
 * The upload size limit the drop-zone shows and enforces: the admin setting upload.maxFileSize
 * read from GET /conversion/limits when the drop-zone appears; the default (100 MB) until the
 * answer comes, or for good when the call fails. The server checks the upload again.
 */
import { useEffect, useState } from 'react';
import { conversionApi } from '../../api/conversions';
import { MAX_APK_BYTES, maxFileSizeFromAnswer } from '../../lib/apkFile';
import { useSession } from '../../stores/session';

/** The last limit read in this tab: a drop-zone shown again starts from it, not from the default. */
let lastKnown: number | undefined;

export function useUploadLimit(): number {
  const token = useSession((s) => s.token);
  const [maxBytes, setMaxBytes] = useState<number>(lastKnown ?? MAX_APK_BYTES);
  useEffect(() => {
    if (!token) return;
    let alive = true;
    conversionApi
      .limits()
      .then((body) => {
        const n = maxFileSizeFromAnswer(body);
        if (n === undefined) return;
        lastKnown = n;
        if (alive) setMaxBytes(n);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [token]);
  return maxBytes;
}
