import { describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "../../src/server/db/demo-data/demo-accounts.js";
import { browserSpec, signIn } from "../support/e2e.js";

/**
 * The suite's own promise (tests/support/e2e.ts): the tests of a spec file share one browser
 * context, emptied between them, so the next person to open a page finds nothing of the last one:
 * no cookie, no storage, no route, not offline. A test that signs in as one person and then
 * another relies on it.
 */

const spec = browserSpec(null);
spec.usePortal();

describe("one browser page after another", () => {
  it("leaves the next page nothing of the last: cookies, storage, routes, offline", async () => {
    const first = await spec.open();
    await signIn(first, spec.portal, { username: DEMO_ADMIN.username });
    await first.evaluate(() => {
      localStorage.setItem("left-behind", "yes");
      sessionStorage.setItem("left-behind", "yes");
    });
    await first.context().route("**/api/health", (route) => route.abort());
    await first.context().setOffline(true);
    expect((await first.context().cookies()).length).toBeGreaterThan(0);

    const next = await spec.open({ width: 390, height: 844 });
    expect(await next.context().cookies()).toEqual([]);
    expect(next.context().pages()).toEqual([next]);
    await next.goto(spec.url("/"));
    const seen = await next.evaluate(async () => ({
      local: localStorage.length,
      session: sessionStorage.length,
      online: navigator.onLine,
      health: (await fetch("/api/health")).status,
      width: window.innerWidth,
    }));
    expect(seen).toEqual({
      local: 0,
      session: 0,
      online: true,
      health: 200,
      width: 390,
    });
    // Signed out: the portal sends the visitor to the sign-in page.
    await next.goto(spec.url("/admin/dashboard"));
    await next.waitForURL((address) => address.pathname === "/admin");
  });
});
