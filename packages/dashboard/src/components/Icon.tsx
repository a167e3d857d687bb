import { ICON_PATHS, type IconName } from './iconPaths';

export type { IconName } from './iconPaths';

/**
 * A bootstrap-icons SVG, inline so it takes the text colour and never depends on an emoji or
 * symbol font. Decorative unless `label` is given (then it is announced as an image).
 */
export function Icon({ name, label, className }: { name: IconName; label?: string; className?: string }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      fill="currentColor"
      className={`bi${className ? ` ${className}` : ''}`}
      focusable="false"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      data-icon={name}
      dangerouslySetInnerHTML={{ __html: ICON_PATHS[name] }}
    />
  );
}
