import type { FastifyInstance, FastifyRequest } from "fastify";
import { saveWithUniqueName } from "./uniqueNames";
import type { AppContext } from "../context";
import { requireAdmin, requireLogin } from "../policies";
import {
  presentDestination,
  presentDestinationFull,
  presentDestinationType,
} from "../presenters/destinations";
import {
  deleteDestination,
  findDestination,
  findDestinationByName,
  insertDestination,
  listDestinations,
  updateDestination,
  type Destination,
} from "../store/destinations";
import { findDestinationType, listDestinationTypes } from "../destinations/registry";
import {
  prepareDestinationOptions,
  readDestinationOptions,
  writeDestinationOptions,
} from "../destinations/options";
import type { DestinationOptions, DestinationType } from "../destinations/types";
import { outboundRefusal } from "../outbound/addressCheck";
import { badRequest, notFound } from "./errors";
import { bodyObject, parseId, typedObjectBody } from "./input";
import * as S from "./schemas";
import { recordRequestEvent } from "./requestEvents";

type Params = { Params: { id: string } };

interface DestinationInput {
  name: string;
  type: DestinationType;
  options: DestinationOptions;
}

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["destinations"];

const docs = {
  types: {
    tags,
    summary: "List alert destination types (admin)",
    response: { 200: S.array(S.destinationType, "Destination types"), ...S.errors(403, 404) },
  },
  list: {
    tags,
    summary: "List alert destinations",
    response: { 200: S.array(S.destination, "Destinations by id"), ...S.errors(404) },
  },
  create: {
    tags,
    summary: "Create an alert destination (admin)",
    body: S.typedObjectBody,
    response: { 200: S.destinationFull, ...S.errors(400, 403, 404) },
  },
  get: {
    tags,
    summary: "Get an alert destination, secrets masked (admin)",
    params: S.idParams,
    response: { 200: S.destinationFull, ...S.errors(403, 404) },
  },
  update: {
    tags,
    summary: "Update an alert destination (admin)",
    params: S.idParams,
    body: S.typedObjectBody,
    response: { 200: S.destinationFull, ...S.errors(400, 403, 404) },
  },
  delete: {
    tags,
    summary: "Delete an alert destination (admin)",
    params: S.idParams,
    response: { 204: S.noContent, ...S.errors(400, 403, 404) },
  },
};

/** The option every type that sends to an address of the admin's choice keeps it in. */
const ADDRESS_OPTION = "url";

/**
 * Name, type and options of a create/update body, the options prepared for the type and their
 * address checked by the outbound guard (SECURITY.md rule 12), so that a destination the server
 * would refuse to send to is not saved without a word.
 */
async function readInput(
  body: Record<string, unknown>,
  stored: { type: string; options: DestinationOptions } | null,
  allowedRanges: readonly string[],
): Promise<DestinationInput> {
  const { name, type, options } = typedObjectBody(body);
  const destinationType = findDestinationType(type);
  if (!destinationType) throw badRequest(`Unknown alert destination type: ${type}.`);
  const prepared = prepareDestinationOptions(destinationType, options, stored);
  if ("problem" in prepared) throw badRequest(prepared.problem);
  const address = prepared.options[ADDRESS_OPTION];
  const property = destinationType.configurationSchema.properties[ADDRESS_OPTION];
  if (property && typeof address === "string" && address !== "") {
    const reason = await outboundRefusal(address, allowedRanges);
    if (reason) {
      const field = property.title ?? ADDRESS_OPTION;
      throw badRequest(`${field}: ${reason}${reason.endsWith(".") ? "" : "."}`);
    }
  }
  return { name, type: destinationType, options: prepared.options };
}

/** Alert destinations (api-platform.md §7.10); events per §10 (create and update record none). */
export async function destinationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const db = ctx.database.db;

  async function load(request: FastifyRequest<Params>, orgId: number): Promise<Destination> {
    const destination = await findDestination(db, orgId, parseId(request.params.id));
    if (!destination) throw notFound();
    return destination;
  }

  app.get("/api/destinations/types", { schema: docs.types }, async (request) => {
    requireAdmin(request);
    return listDestinationTypes().map(presentDestinationType);
  });

  app.get("/api/destinations", { schema: docs.list }, async (request) => {
    const { org } = requireLogin(request);
    const destinations = await listDestinations(db, org.id);
    await recordRequestEvent(ctx, request, "list", "destination", "admin/destinations");
    return destinations.map(presentDestination);
  });

  app.post("/api/destinations", { schema: docs.create }, async (request) => {
    const { identity, org } = requireAdmin(request);
    const input = await readInput(bodyObject(request), null, ctx.config.outboundAllowedRanges);
    const destination = await saveWithUniqueName({
      kind: "Alert Destination",
      name: input.name,
      selfId: null,
      findByName: (name) => findDestinationByName(db, org.id, name),
      save: () =>
        insertDestination(db, {
          orgId: org.id,
          userId: identity.user.id,
          name: input.name,
          type: input.type.type,
          encryptedOptions: writeDestinationOptions(ctx, input.options),
        }),
    });
    return presentDestinationFull(ctx, destination);
  });

  app.get<Params>("/api/destinations/:id", { schema: docs.get }, async (request) => {
    const { org } = requireAdmin(request);
    const destination = await load(request, org.id);
    await recordRequestEvent(ctx, request, "view", "destination", destination.id);
    return presentDestinationFull(ctx, destination);
  });

  app.post<Params>("/api/destinations/:id", { schema: docs.update }, async (request) => {
    const { org } = requireAdmin(request);
    const destination = await load(request, org.id);
    const input = await readInput(
      bodyObject(request),
      { type: destination.type, options: readDestinationOptions(ctx, destination) },
      ctx.config.outboundAllowedRanges,
    );
    await saveWithUniqueName({
      kind: "Alert Destination",
      name: input.name,
      selfId: destination.id,
      findByName: (name) => findDestinationByName(db, org.id, name),
      save: () =>
        updateDestination(db, destination.id, {
          name: input.name,
          type: input.type.type,
          encrypted_options: writeDestinationOptions(ctx, input.options),
        }),
    });
    return presentDestinationFull(ctx, (await findDestination(db, org.id, destination.id))!);
  });

  app.delete<Params>("/api/destinations/:id", { schema: docs.delete }, async (request, reply) => {
    const { org } = requireAdmin(request);
    const destination = await load(request, org.id);
    await deleteDestination(db, destination.id);
    await recordRequestEvent(ctx, request, "delete", "destination", destination.id);
    return reply.code(204).send();
  });
}
