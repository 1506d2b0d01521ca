// The Add Website dialog (spec sections 4, 5 and 8): closes and clears on success and refreshes the
// websites; a 403 shows the limit toast with the server's message and an Upgrade Plan link.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { jsonResponse, renderInApp, stubFetch } from "../../test/render";
import { AddWebsiteDialog } from "./add-website-dialog";

async function openAndFill(name: string, domain: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "Add Website" }));
  const dialog = await screen.findByRole("dialog");
  await user.type(within(dialog).getByLabelText("Website Name"), name);
  await user.type(within(dialog).getByLabelText("Domain"), domain);
  await user.click(within(dialog).getByRole("button", { name: "Add Website" }));
  return { user, dialog };
}

describe("add website dialog", () => {
  it("shows the spec placeholders", async () => {
    renderInApp(<AddWebsiteDialog />);
    await userEvent
      .setup()
      .click(await screen.findByRole("button", { name: "Add Website" }));
    expect(screen.getByLabelText("Website Name")).toHaveAttribute(
      "placeholder",
      "My Website",
    );
    expect(screen.getByLabelText("Domain")).toHaveAttribute(
      "placeholder",
      window.location.host,
    );
  });

  describe("when the website is added", () => {
    it("closes, clears its fields, toasts and refreshes websites and website stats", async () => {
      const { requests } = stubFetch({
        "POST /api/websites": () =>
          jsonResponse({ id: "w1", name: "Shop", domain: "shop.example" }, 201),
      });
      const { queryClient } = renderInApp(<AddWebsiteDialog />);
      queryClient.setQueryData(["websites"], []);
      queryClient.setQueryData(["stats", "websites"], []);
      queryClient.setQueryData(["stats", "consents"], {
        totalConsents: 1,
        declinedConsents: 0,
        consentRate: 100,
      });

      const { user } = await openAndFill("Shop", "shop.example");

      expect(await screen.findByText("Website added")).toBeInTheDocument();
      expect(
        screen.getByText("Your website has been successfully added."),
      ).toBeInTheDocument();
      await waitFor(() =>
        expect(screen.queryByRole("dialog")).not.toBeInTheDocument(),
      );
      expect(requests[0]).toMatchObject({
        method: "POST",
        url: "/api/websites",
        body: { name: "Shop", domain: "shop.example" },
        credentials: "include",
      });
      expect(queryClient.getQueryState(["websites"])?.isInvalidated).toBe(true);
      expect(
        queryClient.getQueryState(["stats", "websites"])?.isInvalidated,
      ).toBe(true);
      // Only the named prefixes: unrelated data is left alone.
      expect(
        queryClient.getQueryState(["stats", "consents"])?.isInvalidated,
      ).toBe(false);

      await user.click(screen.getByRole("button", { name: "Add Website" }));
      const reopened = await screen.findByRole("dialog");
      expect(within(reopened).getByLabelText("Website Name")).toHaveValue("");
      expect(within(reopened).getByLabelText("Domain")).toHaveValue("");
    });
  });

  describe("when the plan limit is reached", () => {
    it("shows 'Subscription Limit Reached' with the server's message and an Upgrade Plan link", async () => {
      stubFetch({
        "POST /api/websites": () =>
          jsonResponse(
            {
              error: {
                code: "WEBSITE_LIMIT_REACHED",
                message: "Website limit reached",
              },
            },
            403,
          ),
      });
      renderInApp(<AddWebsiteDialog />);
      await openAndFill("Shop", "shop.example");

      expect(
        await screen.findByText("Subscription Limit Reached"),
      ).toBeInTheDocument();
      expect(screen.getByText("Website limit reached")).toBeInTheDocument();
      expect(
        screen.getByRole("link", { name: "Upgrade Plan" }),
      ).toHaveAttribute("href", "/pricing");
    });
  });

  describe("when another 403 refuses the add (a session without an owner account)", () => {
    it("shows the real reason once, in the dialog: no limit toast, no 'try again'", async () => {
      stubFetch({
        "POST /api/websites": () =>
          jsonResponse(
            {
              error: {
                code: "OWNER_ACCOUNT_REQUIRED",
                message:
                  "This needs a website owner account; admins manage owners from User Management",
              },
            },
            403,
          ),
      });
      renderInApp(<AddWebsiteDialog />);
      const { dialog } = await openAndFill("Shop", "shop.example");

      expect(await within(dialog).findByRole("alert")).toHaveTextContent(
        "This needs a website owner account; admins manage owners from User Management",
      );
      expect(
        screen.queryByText("Failed to add website. Please try again."),
      ).not.toBeInTheDocument();
      expect(
        screen.queryByText("Subscription Limit Reached"),
      ).not.toBeInTheDocument();
      expect(
        screen.queryByRole("link", { name: "Upgrade Plan" }),
      ).not.toBeInTheDocument();
    });
  });

  describe("when the api refuses the domain", () => {
    it("shows the api's reason in the dialog and clears it when the dialog is reopened", async () => {
      stubFetch({
        "POST /api/websites": () =>
          jsonResponse(
            {
              error: {
                code: "INVALID_DOMAIN",
                message: "Enter a domain such as example.com",
              },
            },
            400,
          ),
      });
      renderInApp(<AddWebsiteDialog />);
      const { user, dialog } = await openAndFill("Shop", "not a domain");

      expect(await within(dialog).findByRole("alert")).toHaveTextContent(
        "Enter a domain such as example.com",
      );
      // Trying again would not help: no toast says to.
      expect(
        screen.queryByText("Failed to add website. Please try again."),
      ).not.toBeInTheDocument();
      await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
      await user.click(screen.getByRole("button", { name: "Add Website" }));
      expect(
        within(await screen.findByRole("dialog")).queryByRole("alert"),
      ).not.toBeInTheDocument();
    });
  });

  describe("when adding fails for another reason", () => {
    it("shows the generic error and keeps the dialog open", async () => {
      stubFetch({
        "POST /api/websites": () => new Response("boom", { status: 500 }),
      });
      renderInApp(<AddWebsiteDialog />);
      await openAndFill("Shop", "shop.example");

      expect(
        await screen.findByText("Failed to add website. Please try again."),
      ).toBeInTheDocument();
      expect(screen.getByText("Error")).toBeInTheDocument();
      expect(screen.getByRole("dialog")).toBeInTheDocument();
      expect(screen.getByLabelText("Website Name")).toHaveValue("Shop");
      // A failure on the server's side has no reason worth showing.
      expect(
        within(screen.getByRole("dialog")).queryByRole("alert"),
      ).not.toBeInTheDocument();
    });
  });
});
