import { theme } from "antd";

/** The product mark: an eye-like lens over a rising line. */
export function SightlineMark({ size = 28 }: { size?: number }) {
  const { token } = theme.useToken();
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill={token.colorPrimary} />
      <path
        d="M6 21 L12 15 L17 18 L26 9"
        fill="none"
        stroke={token.colorWhite}
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="26" cy="9" r="2.4" fill={token.colorWhite} />
    </svg>
  );
}
