import { expect, test } from "@playwright/test";

import { signIn } from "./support/auth";
import { addDestination, removeDestination } from "./support/destinations";
import { e2eUsers } from "./support/env";

// A destination's URL often carries its receiver's credential, in the path as often as in the query: support
// sees its origin only, on the page and in what the page is sent; admins see it whole. Nothing listens at
// the URL, and the destination is removed before anything could be sent to it.

const URL_WITH_TOKENS = "http://127.0.0.1:9/hooks/tok_e2e_path_secret?key=e2e_query_secret";

test("support sees a destination's URL as its origin; the admin sees it whole", async ({ page, browser }) => {
  await signIn(page, e2eUsers.admin, "/destinations");
  await addDestination(page, "Origins", URL_WITH_TOKENS, /Standard Webhooks/);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("destination-Origins")).toContainText(URL_WITH_TOKENS);

  const supportContext = await browser.newContext();
  const support = await supportContext.newPage();
  try {
    await signIn(support, e2eUsers.support, "/destinations");
    const card = support.getByTestId("destination-Origins");
    await expect(card).toContainText("http://127.0.0.1:9");
    await expect(card).not.toContainText("/hooks");
    // Nor anywhere in the document, the payload the page hydrates from included.
    expect(await support.content()).not.toMatch(/tok_e2e_path_secret|e2e_query_secret/);
  } finally {
    await supportContext.close();
    await removeDestination(page, "Origins");
  }
});
