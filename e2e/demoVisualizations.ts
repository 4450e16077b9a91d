// Moved to e2e/fixtures/: kept for the browser tests that still import it from here.
export { demoDataSourceId } from "./fixtures/demo";
export {
  createQueryWithVisualization as saveVisualization,
  embedPath,
  type SavedVisualization,
} from "./fixtures/queries";
