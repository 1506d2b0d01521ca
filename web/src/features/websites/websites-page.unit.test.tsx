// Add Website for owners and admins: an owner adds to their own account; an admin chooses, in the
// dialog, the owner the website is for (only registered, active owners are offered).
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "../../lib/query-client";
import { jsonResponse, renderInApp, stubFetch } from "../../test/render";
import { WebsitesPage } from "./websites-page";

const website = {
  id: "w1",
  name: "Shop",
  domain: "shop.example",
  isActive: true,
  embedCode: "emb_1",
  createdAt: "2024-05-01T12:00:00Z",
};

function signedIn(session: { user?: object | null; admin?: object | null }) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(["auth", "user"], session.user ?? null);
  queryClient.setQueryData(["admin", "me"], session.admin ?? null);
  return queryClient;
}

describe("websites page", () => {
  describe("for an owner", () => {
    it("offers Add Your First Website when there are none, then Add Website", async () => {
      const websites: unknown[] = [];
      stubFetch({ "GET /api/websites": () => jsonResponse(websites) });
      const queryClient = signedIn({
        user: { id: "u1", email: "owner@shop.example" },
      });
      renderInApp(<WebsitesPage />, queryClient);
      expect(await screen.findByText("No websites yet")).toBeInTheDocument();
      expect(
        screen.getByRole("button", { name: "Add Your First Website" }),
      ).toBeInTheDocument();

      websites.push(website);
      await queryClient.invalidateQueries({ queryKey: ["websites"] });
      expect(
        await screen.findByRole("article", { name: "Shop" }),
      ).toBeInTheDocument();
      expect(
        screen.getByRole("button", { name: "Add Website" }),
      ).toBeInTheDocument();
    });
  });

  describe("for an admin", () => {
    it("names each website's owner, and says when the account is gone", async () => {
      stubFetch({
        "GET /api/websites": () =>
          jsonResponse([
            { ...website, owner: { id: "u1", email: "bob@bakery.example", name: "Bob Baker" } },
            { ...website, id: "w2", name: "Kiosk", owner: { id: "u2", email: "kiosk@example.com", name: null } },
            { ...website, id: "w3", name: "Gone", owner: null },
          ]),
      });
      renderInApp(<WebsitesPage />, signedIn({ admin: { username: "admin" } }));
      expect(
        within(await screen.findByRole("article", { name: "Shop" })).getByText("Owner: Bob Baker (bob@bakery.example)"),
      ).toBeInTheDocument();
      expect(within(screen.getByRole("article", { name: "Kiosk" })).getByText("Owner: kiosk@example.com")).toBeInTheDocument();
      expect(within(screen.getByRole("article", { name: "Gone" })).getByText("Owner: account deleted")).toBeInTheDocument();
    });

    it("lists every owner's websites and adds one for the owner chosen in the dialog", async () => {
      const { requests } = stubFetch({
        "GET /api/websites": () => jsonResponse([website]),
        "GET /api/admin/users": () =>
          jsonResponse([
            {
              id: "u1",
              email: "bob@bakery.example",
              firstName: "Bob",
              lastName: "Baker",
              status: "registered",
              isActive: true,
              subscriptionTier: "free",
              subscriptionStatus: "active",
              maxWebsites: 1,
              maxConsentsPerMonth: 15,
              websiteCount: 0,
              consentCount: 0,
            },
            {
              id: "u2",
              email: "pending@example.com",
              status: "invited",
              isActive: true,
              subscriptionTier: "free",
              subscriptionStatus: "active",
              maxWebsites: 1,
              maxConsentsPerMonth: 15,
              websiteCount: 0,
              consentCount: 0,
            },
          ]),
        "POST /api/websites": () =>
          jsonResponse({ ...website, id: "w2", name: "Bakery" }, 201),
      });
      renderInApp(<WebsitesPage />, signedIn({ admin: { username: "admin" } }));
      expect(
        await screen.findByRole("article", { name: "Shop" }),
      ).toBeInTheDocument();
      expect(
        screen.getByText("Every owner's websites and their consent banners."),
      ).toBeInTheDocument();

      const user = userEvent.setup();
      await user.click(screen.getByRole("button", { name: "Add Website" }));
      const dialog = await screen.findByRole("dialog");
      await user.type(within(dialog).getByLabelText("Website Name"), "Bakery");
      await user.type(
        within(dialog).getByLabelText("Domain"),
        "bakery.example",
      );
      await user.click(
        within(dialog).getByRole("button", { name: "Add Website" }),
      );
      expect(await within(dialog).findByRole("alert")).toHaveTextContent(
        "Choose the owner this website is for.",
      );
      expect(
        requests.filter((request) => request.method === "POST"),
      ).toHaveLength(0);

      await user.click(within(dialog).getByRole("combobox", { name: "Owner" }));
      expect(
        screen.queryByRole("option", { name: /pending@example.com/ }),
      ).not.toBeInTheDocument();
      await user.click(
        await screen.findByRole("option", {
          name: "Bob Baker (bob@bakery.example)",
        }),
      );
      await user.click(
        within(dialog).getByRole("button", { name: "Add Website" }),
      );
      await expect
        .poll(() => requests.find((request) => request.method === "POST")?.body)
        .toEqual({ name: "Bakery", domain: "bakery.example", ownerId: "u1" });
    });

    it("offers Add Your First Website when there are none", async () => {
      stubFetch({ "GET /api/websites": () => jsonResponse([]) });
      renderInApp(<WebsitesPage />, signedIn({ admin: { username: "admin" } }));
      expect(await screen.findByText("No websites yet")).toBeInTheDocument();
      expect(
        screen.getByRole("button", { name: "Add Your First Website" }),
      ).toBeInTheDocument();
    });
  });
});
