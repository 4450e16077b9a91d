import { Alert, Typography } from "antd";
import { useState } from "react";
import { resendVerificationEmail } from "../../api/home";
import { notify } from "../../app/notifications";
import { useSession } from "../../app/session";

/** Warnings carried by the session's messages (spec §2 home page). */
export function SessionWarnings() {
  const { messages } = useSession();
  const [sending, setSending] = useState(false);

  async function resend() {
    if (sending) return;
    setSending(true);
    try {
      const answer = await resendVerificationEmail();
      notify.success(answer?.message ?? "Email sent.");
    } catch (error) {
      notify.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  }

  return (
    <>
      {messages.includes("using-deprecated-embed-feature") && (
        <Alert
          type="warning"
          showIcon
          data-testid="deprecated-embed-warning"
          title="Parameters in embeds are enabled by a deprecated setting."
          description="Embeds support parameters on their own now. Ask your operator to turn the setting off."
        />
      )}
      {messages.includes("email-not-verified") && (
        <Alert
          type="warning"
          showIcon
          data-testid="email-not-verified-warning"
          title="Please verify your email address."
          description={
            <>
              We sent you an email with a confirmation link; follow it to verify your address.{" "}
              <Typography.Link
                onClick={resend}
                disabled={sending}
                data-testid="resend-verification"
              >
                Resend email
              </Typography.Link>
            </>
          }
        />
      )}
    </>
  );
}
