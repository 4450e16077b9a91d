import { Card, Empty } from "antd";
import { PageHeader } from "./PageHeader";
import { SettingsTabs } from "./SettingsTabs";

interface AreaPlaceholderProps {
  title: string;
  tabs?: "settings" | "admin";
}

/** Stands in for an area that is not built yet, so that navigation already works. */
export default function AreaPlaceholder({ title, tabs }: AreaPlaceholderProps) {
  return (
    <>
      <PageHeader title={title} />
      {tabs && <SettingsTabs area={tabs} />}
      <Card>
        <Empty description={`${title} will be available here soon.`} />
      </Card>
    </>
  );
}
