// Hook tests of the query page: the providers the app puts around it (react-query, antd's App
// with its notifications, the session gate, a data router), and a session answer for a fake fetch.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App } from "antd";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { NotificationsBridge } from "../../app/notifications";
import { SessionGate } from "../../app/session";

/** GET api/session's answer: user 1, with these permissions. */
export function sessionAnswer(permissions: string[]): Response {
  const session = {
    user: { id: 1, name: "Ann", permissions },
    messages: [],
    org_slug: "default",
    client_config: { autoPublishNamedQueries: true },
  };
  return new Response(JSON.stringify(session), {
    headers: { "content-type": "application/json" },
  });
}

/**
 * A wrapper for renderHook at `address`; `location()` reads the router's address since. The hook
 * shows once the session has loaded (its result is null until then).
 */
export function appProviders(address: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let router: ReturnType<typeof createMemoryRouter> | null = null;
  const wrapper = ({ children }: { children: ReactNode }) => {
    router ??= createMemoryRouter([{ path: "*", element: children }], {
      initialEntries: [address],
    });
    return (
      <QueryClientProvider client={client}>
        <App>
          <NotificationsBridge />
          <SessionGate>
            <RouterProvider router={router} />
          </SessionGate>
        </App>
      </QueryClientProvider>
    );
  };
  return { wrapper, location: () => router!.state.location };
}
