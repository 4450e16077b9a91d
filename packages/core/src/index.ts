// @sightline/core: the pure rules of the product, shared by server and web app. No I/O here.
export * from "./parameters";
export * from "./queryText";
export * from "./schedules";
export * from "./visualizations";
export * from "./columns";
export * from "./permissions";
export * from "./safeNext";
export * from "./settings";
export * from "./format";
export * from "./entities";
export * from "./queryHash";
export * from "./alerts";
export * from "./crossFilter";
export * from "./crossFilterParameters";
export * from "./crossFilterUrl";
export * from "./drillDown";
export * from "./drillDownTrail";
