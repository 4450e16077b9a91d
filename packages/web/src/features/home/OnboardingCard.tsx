import { CheckCircleFilled, RightCircleOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Card, Skeleton, Typography } from "antd";
import { Link } from "react-router";
import { getOrganizationStatus } from "../../api/home";
import { useSession } from "../../app/session";
import { useCanCreateQuery } from "../queries/useCanCreateQuery";
import { onboardingSteps, showOnboarding, type OnboardingStep } from "./onboarding";
import styles from "./HomePage.module.css";

function Step({ step }: { step: OnboardingStep }) {
  const icon = step.done ? (
    <CheckCircleFilled className={styles.stepDone} />
  ) : (
    <RightCircleOutlined className={styles.stepTodo} />
  );
  const label =
    step.href && !step.done ? <Link to={step.href}>{step.title}</Link> : <span>{step.title}</span>;
  return (
    <li className={step.done ? styles.done : undefined} data-testid={`onboarding-${step.key}`}>
      {icon}
      {label}
    </li>
  );
}

/** The welcome block with onboarding steps (spec §2 home page). */
export function OnboardingCard() {
  const { user } = useSession();
  const status = useQuery({ queryKey: ["organization", "status"], queryFn: getOrganizationStatus });
  const canCreateQuery = useCanCreateQuery();
  if (status.isPending || canCreateQuery === undefined) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
    );
  }
  const steps = onboardingSteps(
    user,
    status.data?.object_counters,
    canCreateQuery,
    status.data?.demo_counters,
  );
  if (!showOnboarding(steps)) return null;
  return (
    <Card data-testid="onboarding">
      <Typography.Title level={4} className={styles.welcomeTitle}>
        Welcome to Sightline
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Connect to your data, query it, visualize it and share it with your team.
      </Typography.Paragraph>
      <ol className={styles.steps}>
        {steps.map((step) => (
          <Step key={step.key} step={step} />
        ))}
      </ol>
    </Card>
  );
}
