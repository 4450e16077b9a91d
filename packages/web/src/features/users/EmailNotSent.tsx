import { Alert, Typography } from "antd";

/** An app-relative link as a full address, to hand over by hand. */
export function absoluteLink(link: string): string {
  return new URL(link, window.location.origin).toString();
}

/** Shown instead of an e-mail when no mail server is configured. */
export function EmailNotSent({ link, who }: { link: string; who: string }) {
  const url = absoluteLink(link);
  return (
    <Alert
      type="warning"
      showIcon
      title="Email not sent!"
      data-testid="email-not-sent"
      description={
        <>
          <Typography.Paragraph>
            The mail server is not configured, please send the following link to {who}:
          </Typography.Paragraph>
          <Typography.Paragraph copyable={{ text: url }} code data-testid="emailed-link">
            {url}
          </Typography.Paragraph>
        </>
      }
    />
  );
}
