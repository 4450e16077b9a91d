import { Col, Row } from "antd";
import { dashboardPath } from "../../api/dashboards";
import { getFavoriteDashboards, getFavoriteQueries } from "../../api/home";
import { hasPermission } from "../../app/permissions";
import { useSession } from "../../app/session";
import { usePageTitle } from "../../components/usePageTitle";
import { BeaconConsentCard } from "./BeaconConsentCard";
import { FavoritesCard, type FavoriteItem } from "./FavoritesCard";
import { OnboardingCard } from "./OnboardingCard";
import { SessionWarnings } from "./SessionWarnings";
import styles from "./HomePage.module.css";

async function favoriteDashboards(): Promise<FavoriteItem[]> {
  const dashboards = await getFavoriteDashboards();
  return dashboards.map((d) => ({
    id: d.id,
    name: d.name,
    href: dashboardPath(d),
    isDraft: d.is_draft,
  }));
}

async function favoriteQueries(): Promise<FavoriteItem[]> {
  const queries = await getFavoriteQueries();
  return queries.map((q) => ({
    id: q.id,
    name: q.name,
    href: `/queries/${q.id}`,
    isDraft: q.is_draft,
  }));
}

/** Home page `/` (spec §2): warnings, consent question, onboarding and favorites. */
export default function HomePage() {
  usePageTitle();
  const { user } = useSession();
  return (
    <div className={styles.home} data-testid="home-page">
      <SessionWarnings />
      <BeaconConsentCard />
      <OnboardingCard />
      <Row gutter={[16, 16]}>
        {hasPermission(user, "list_dashboards") && (
          <Col xs={24} lg={12}>
            <FavoritesCard
              title="Favorite Dashboards"
              queryKey="dashboards"
              load={favoriteDashboards}
              emptyText="Mark dashboards as Favorite to list them here."
              allHref="/dashboards"
              allLabel="All dashboards"
              testId="favorite-dashboards"
            />
          </Col>
        )}
        {hasPermission(user, "view_query") && (
          <Col xs={24} lg={12}>
            <FavoritesCard
              title="Favorite Queries"
              queryKey="queries"
              load={favoriteQueries}
              emptyText="Mark queries as Favorite to list them here."
              allHref="/queries"
              allLabel="All queries"
              testId="favorite-queries"
            />
          </Col>
        )}
      </Row>
    </div>
  );
}
