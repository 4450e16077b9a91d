import { Alert } from "antd";

/** A visible, non-blocking note saying what is wrong with the data or options. */
export function Notices({ notices }: { notices: readonly string[] }) {
  if (notices.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 8 }}
      title={notices.length === 1 ? notices[0] : undefined}
      description={
        notices.length > 1 ? (
          <ul style={{ margin: 0, paddingLeft: 16 }}>
            {notices.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        ) : undefined
      }
    />
  );
}
