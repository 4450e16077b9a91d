// First-run setup: the page and form that create the organisation and its first admin, open only
// while there is no organisation.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { AlreadySetUpError, setUpOrganization } from "../../services/organizationSetup";
import { countOrgs } from "../../store/organizations";
import { field, page } from "../pages";
import { startSession } from "../requestAuth";
import { docs } from "./docs";
import { csrfField, EMAIL_PATTERN, formOf, html, MIN_PASSWORD_LENGTH, type Form } from "./support";

export function setupRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;

  // A refused form comes back with everything typed, the password too (a short one can then be
  // lengthened): the page goes only to the person who sent it, never cached (html() says
  // no-store), and first-run setup has no other user yet.
  function setupPage(request: FastifyRequest, values: Form = {}, errors: Form = {}) {
    return page(
      "Setup",
      `<h1>Welcome to Sightline</h1>
<p>Before you can use Sightline, create your organisation and its first admin user.</p>
<form method="post" action="/setup" novalidate>${csrfField(ctx, request)}
${field("Name", "name", "text", values.name, errors.name, 'autocomplete="name"')}
${field("Email Address", "email", "email", values.email, errors.email, 'autocomplete="email"')}
${field("Password", "password", "password", values.password, errors.password, 'autocomplete="new-password"')}
${field("Organization Name", "org_name", "text", values.org_name, errors.org_name)}
<button type="submit">Setup</button></form>`,
    );
  }

  app.get("/setup", { schema: docs.setupPage }, async (request, reply) => {
    if ((await countOrgs(db)) > 0) return reply.redirect("/");
    return html(reply, 200, setupPage(request));
  });

  app.post("/setup", { schema: docs.setup }, async (request, reply) => {
    if ((await countOrgs(db)) > 0) return reply.redirect("/");
    const form = formOf(request);
    const values = {
      name: (form.name ?? "").trim(),
      email: (form.email ?? "").trim(),
      password: form.password ?? "",
      org_name: (form.org_name ?? "").trim(),
    };
    const errors: Form = {};
    if (!values.name) errors.name = "This field is required.";
    if (!EMAIL_PATTERN.test(values.email)) errors.email = "Invalid email address.";
    if (values.password.length < MIN_PASSWORD_LENGTH) {
      errors.password = `Field must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
    }
    if (!values.org_name) errors.org_name = "This field is required.";
    if (Object.keys(errors).length > 0) return html(reply, 200, setupPage(request, values, errors));
    try {
      const { user } = await setUpOrganization(db, {
        orgName: values.org_name,
        name: values.name,
        email: values.email,
        password: values.password,
      });
      await ctx.hooks.afterSetup(user);
      startSession(request, user, false);
      return reply.redirect("/");
    } catch (err) {
      if (err instanceof AlreadySetUpError) return reply.redirect("/");
      throw err;
    }
  });
}
