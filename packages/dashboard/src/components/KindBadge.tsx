import { CONVERSION_KIND_LABELS, type ConversionKind } from '@aabify/shared';

/** A conversion's kind as a badge (history, conversion page, Admin › Conversões): APK → AAB or AAB → APK. */
export function KindBadge({ kind }: { kind: ConversionKind | undefined }) {
  const k = kind ?? 'apk-to-aab';
  return (
    <span className={`badge ${k === 'aab-to-apks' ? 'text-bg-info' : 'text-bg-secondary'}`} data-testid="conversion-kind">
      {CONVERSION_KIND_LABELS[k]}
    </span>
  );
}
