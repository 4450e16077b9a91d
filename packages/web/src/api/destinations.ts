import type { ConfigurationSchema, Destination } from "@sightline/core";
import { http } from "./http";

export type { Destination };

/** A destination type as GET api/destinations/types describes it (api-platform.md §6.9). */
export interface DestinationType {
  name: string;
  type: string;
  icon: string;
  configuration_schema: ConfigurationSchema;
  deprecated?: boolean;
}

export interface DestinationInput {
  name: string;
  type: string;
  options: Record<string, unknown>;
}

export function listDestinations(): Promise<Destination[]> {
  return http.get<Destination[]>("api/destinations");
}

export function listDestinationTypes(): Promise<DestinationType[]> {
  return http.get<DestinationType[]>("api/destinations/types");
}

export function getDestination(id: number): Promise<Destination> {
  return http.get<Destination>(`api/destinations/${id}`);
}

export function createDestination(input: DestinationInput): Promise<Destination> {
  return http.post<Destination>("api/destinations", input);
}

export function saveDestination(id: number, input: DestinationInput): Promise<Destination> {
  return http.post<Destination>(`api/destinations/${id}`, input);
}

export function deleteDestination(id: number): Promise<unknown> {
  return http.delete(`api/destinations/${id}`);
}
