import { Button, Card, Space, Typography } from "antd";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { saveBeaconConsent } from "../../api/home";
import { notify } from "../../app/notifications";
import { SESSION_QUERY_KEY, useSession } from "../../app/session";

/** Asks once whether anonymous usage data may be shared; shown while the config flag is on. */
export function BeaconConsentCard() {
  const { client_config } = useSession();
  const queryClient = useQueryClient();
  const [answered, setAnswered] = useState(false);
  const [saving, setSaving] = useState(false);

  if (!client_config.showBeaconConsentMessage || answered) return null;

  async function answer(consent: boolean) {
    setSaving(true);
    try {
      await saveBeaconConsent(consent);
      notify.success("Thank you.");
      setAnswered(true);
      // The session's client config says whether to ask: reloaded, it no longer asks.
      void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    } catch {
      notify.error("Failed saving changes.");
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card data-testid="beacon-consent">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        Would you like to share anonymous usage data?
      </Typography.Title>
      <Typography.Paragraph>
        Sharing anonymous usage data with the Sightline project helps to see how it is used and what
        to improve. No data from your data sources, queries or dashboards is ever sent.
      </Typography.Paragraph>
      <Space wrap>
        <Button type="default" onClick={() => answer(false)} disabled={saving}>
          No
        </Button>
        <Button type="primary" onClick={() => answer(true)} disabled={saving}>
          Yes
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        You can change this answer later in the{" "}
        <Link to="/settings/organization">organization settings</Link>.
      </Typography.Paragraph>
    </Card>
  );
}
