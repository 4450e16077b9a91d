// The result store: compressed chunks of rows apart from the metadata row, streamed out.
export * from "./limits";
export * from "./resultStore";
export * from "./cache";
export * from "./queryResultJson";
export * from "./delimited";
export * from "./xlsx";
export * from "./filename";
export * from "./gzipJson";
export * from "./storeSizes";
export * from "./primedStream";
