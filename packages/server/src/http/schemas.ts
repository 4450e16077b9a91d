/**
 * JSON-schema shapes of the API, for the OpenAPI document at /api/docs (api-queries.md §2A,
 * api-platform.md §6). They only document: app.ts validates nothing against them and sends
 * answers through plain JSON.stringify, so the hand-written checks in the routes (whose messages
 * and leniency follow Redash's) stay the source of truth. Objects allow additional properties,
 * and every shape a route answers carries a description, which becomes the response's title.
 */

// The shapes are in ./schemas/, by the API area they describe; routes import them all from here
// (`import * as S from "./schemas"`). Building blocks shared between areas stay out of S.
export * from "./schemas/basics";
export * from "./schemas/answers";
export * from "./schemas/users";
export { typedObjectBody } from "./schemas/typedObjects";
export * from "./schemas/dataSources";
export * from "./schemas/results";
export { visualization } from "./schemas/visualizations";
export * from "./schemas/queries";
export * from "./schemas/dashboards";
export * from "./schemas/alerts";
export * from "./schemas/platform";
