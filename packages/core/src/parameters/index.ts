export * from "./types";
export * from "./dynamicDates";
export * from "./normalize";
export * from "./urlParams";
export * from "./validate";
export * from "./render";
export * from "./safety";
export * from "./dropdown";
